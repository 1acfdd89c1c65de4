import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent.js';
import type { Request } from '../../src/llm/index.js';
import type { RunResult } from '../../src/machines/run-types.js';
import { ensureDist } from '../helpers/ensure-dist.js';

// The examples import `attractor/agent`, `attractor/llm` and `attractor/testing` as users do, through the
// package's exports map (dist/).
interface SessionExample {
  runSessionExample(
    dir: string,
    onEvent?: (event: AgentEvent) => void,
  ): Promise<{ kinds: string[]; greet: string; readme: string; requests: Request[] }>;
}
interface PipelineExample {
  runPipelineToolsExample(dir: string): Promise<{ result: RunResult; tickets: string[]; audit: string[] }>;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'attractor-agent-example-')));
  dirs.push(dir);
  return dir;
}

describe('examples/agent', () => {
  beforeAll(() => ensureDist(), 180_000);

  it('session.mjs: a session with a custom tool, steered mid-task, then a follow-up', async () => {
    const example: string = '../../examples/agent/session.mjs';
    const { runSessionExample } = (await import(/* @vite-ignore */ example)) as SessionExample;
    const { kinds, greet, readme, requests } = await runSessionExample(workspace());
    expect(greet).toBe("export const greet = (name) => 'Hello, ' + name;\n");
    expect(readme).toBe('# greet\n');
    expect(kinds[0]).toBe('session_start');
    expect(kinds.filter((k) => k === 'user_input')).toHaveLength(2);
    expect(kinds).toContain('steering_injected');
    expect(kinds.at(-2)).toBe('processing_end');
    expect(kinds.at(-1)).toBe('session_end');
    // The steering message reached the model in the call after the tool round it followed.
    const texts = (request: Request) => JSON.stringify(request.messages);
    expect(texts(requests[0]!)).not.toContain('Keep greet.mjs');
    expect(texts(requests[1]!)).toContain('Keep greet.mjs to a single line.');
    // The custom tool was offered and answered.
    expect(requests[0]!.tools?.map((tool) => tool.name)).toContain('count_lines');
    expect(texts(requests[2]!)).toContain('greet.mjs: 1 line(s)');
  });

  it('pipeline-tools.mjs: agent nodes get the custom tool and work in the custom environment', async () => {
    const example: string = '../../examples/agent/pipeline-tools.mjs';
    const { runPipelineToolsExample } = (await import(/* @vite-ignore */ example)) as PipelineExample;
    const dir = workspace();
    const { result, tickets, audit } = await runPipelineToolsExample(dir);
    expect(result).toMatchObject({ status: 'completed', quality: 'clean' });
    expect(tickets).toEqual(['Lint fails']);
    expect(audit).toEqual(['triage: echo "lint: 2 errors"']);
    // The backend's ledger was the run's accounting: usage reached the result.
    expect(result.usage).toMatchObject({ calls: 3 });
    expect(readdirSync(join(dir, '.runs'))).toEqual(['triage']);
  });
});
