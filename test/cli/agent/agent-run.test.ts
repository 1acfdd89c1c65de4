import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../../helpers/fake-anthropic-server.js';
import type { ScriptedServer } from '../../helpers/sse.js';
import { runCli } from '../run-cli.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-agent-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function anthropic(): Promise<ScriptedServer> {
  const server = await startFakeAnthropicServer();
  cleanups.push(() => server.close());
  return server;
}

const ONE_NODE = `digraph hello {
  goal="Write hello.txt"
  start [shape=Mdiamond]; exit [shape=Msquare];
  write [prompt="Create hello.txt saying hi", llm_model="claude-sonnet-4-6"];
  start -> write -> exit;
}`;

const usage = { input_tokens: 1000, output_tokens: 50 };

function events(stdout: string): Array<{ kind: string; node_id?: string; data: Record<string, unknown> }> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe('attractor run with the agent backend (Anthropic Messages fake)', () => {
  it('runs a tool call then a text answer: the file exists and response.md holds the final text', async () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'hello.dot'), ONE_NODE);
    const server = await anthropic();
    server.enqueue(
      anthropicStreamReply({
        content: [
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'write_file',
            input: { path: 'hello.txt', content: 'hi\n' },
          },
        ],
        stop_reason: 'tool_use',
        usage,
      }),
      anthropicStreamReply({ content: [{ type: 'text', text: 'Wrote hello.txt.' }], usage }),
    );
    const env = { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin };
    const result = await runCli(['run', 'hello.dot', '--json', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.stderr).toContain('Completed at exit');
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(dir, 'hello.txt'), 'utf8')).toBe('hi\n');
    expect(readFileSync(path.join(dir, 'run', 'write', 'response.md'), 'utf8')).toBe('Wrote hello.txt.');
    const kinds = events(result.stdout).map((e) => e.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['agent.tool_call_start', 'agent.tool_call_end', 'agent.usage']),
    );
    const complete = events(result.stdout).find((e) => e.kind === 'node.complete' && e.node_id === 'write');
    expect(complete?.data['usage']).toMatchObject({ calls: 2, input_tokens: 2000, output_tokens: 100 });
    const status = JSON.parse(readFileSync(path.join(dir, 'run', 'write', 'status.json'), 'utf8'));
    expect(status).toMatchObject({ outcome: 'success', usage: { calls: 2 } });
    // The second request carried the tool's result back to the model.
    expect(JSON.stringify(server.requests[1]?.body)).toContain('toolu_1');
  });

  it('refuses to start when a node needs a key that is not set, naming the variable and the node', async () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'hello.dot'), ONE_NODE);
    const result = await runCli(['run', 'hello.dot'], { cwd: dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ANTHROPIC_API_KEY (needed by node write)');
    expect(existsSync(path.join(dir, '.attractor-runs'))).toBe(false);
  });
});
