import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentBackend } from '../../../src/actors/codergen/agent-backend.js';
import { configuredProviders } from '../../../src/actors/codergen/configured-providers.js';
import { UsageLedger } from '../../../src/actors/codergen/usage-ledger.js';
import { writeSteering } from '../../../src/actors/steering-file.js';
import { compile } from '../../../src/compiler/compile.js';
import { LLMClient } from '../../../src/llm/index.js';
import { ScriptedAdapter, type ScriptedTurnSource } from '../../../src/llm/testing/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(turns: ScriptedTurnSource) {
  const workingDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-steer-')));
  dirs.push(workingDir);
  const adapter = new ScriptedAdapter({ name: 'anthropic', turns });
  const backend = createAgentBackend({
    client: new LLMClient({ adapters: [adapter] }),
    workingDir,
    providers: configuredProviders({ ANTHROPIC_API_KEY: 'k' }),
    ledger: new UsageLedger(),
    steeringPollMs: 20,
  });
  const graph = compile(`digraph g { start [shape=Mdiamond]; exit [shape=Msquare];
    a [prompt="one", llm_model="claude-sonnet-4-6"]; start -> a -> exit; }`).graph;
  const stageDir = path.join(workingDir, 'run', 'a');
  mkdirSync(stageDir, { recursive: true });
  const events: string[] = [];
  const run = () =>
    backend.run({
      node: graph.nodes.find((n) => n.id === 'a')!,
      prompt: 'do a',
      contextSummary: '',
      fidelity: 'compact',
      model: 'claude-sonnet-4-6',
      stageDir,
      signal: new AbortController().signal,
      emit: (kind) => events.push(kind),
    });
  const userTexts = (call: number): string[] =>
    adapter.calls[call]!.request.messages.filter((m) => m.role === 'user').flatMap((m) =>
      m.content.flatMap((p) => (p.kind === 'text' ? [p.text] : [])),
    );
  return { run, stageDir, userTexts, events, workingDir };
}

describe("the agent picks up a manager's steering.md from its stage directory", () => {
  it('injects a message written while a tool round runs before the next model call, once', async () => {
    let stageDir = '';
    const t = setup((_request, call) => {
      if (call === 0) {
        // The manager steers while the agent is busy with this round.
        setTimeout(() => writeSteering(stageDir, 'Prefer the smaller fix'), 10);
        return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'notes.txt' } }], delayMs: 120 };
      }
      return call === 1
        ? { toolCalls: [{ name: 'read_file', arguments: { file_path: 'notes.txt' } }], delayMs: 80 }
        : 'done';
    });
    stageDir = t.stageDir;
    writeFileSync(path.join(t.workingDir, 'notes.txt'), 'n');
    const result = await t.run();
    expect(result.response).toBe('done');
    expect(t.userTexts(0)).not.toContain('Prefer the smaller fix');
    expect(t.userTexts(1)).toContain('Prefer the smaller fix');
    // Delivered once: the file is moved aside, so neither a later round nor a later visit sees it again.
    expect(t.userTexts(2).filter((text) => text === 'Prefer the smaller fix')).toHaveLength(1);
    expect(existsSync(path.join(t.stageDir, 'steering.md'))).toBe(false);
    expect(existsSync(path.join(t.stageDir, 'steering.md.delivered'))).toBe(true);
    expect(t.events).toContain('agent.steering_injected');
  });
});
