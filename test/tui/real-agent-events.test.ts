import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createAgentBackend } from '../../src/actors/codergen/agent-backend.js';
import { configuredProviders } from '../../src/actors/codergen/configured-providers.js';
import { UsageLedger } from '../../src/actors/codergen/usage-ledger.js';
import { AutoApproveInterviewer } from '../../src/actors/interviewers/auto-approve.js';
import { loadPipeline } from '../../src/compiler/compile.js';
import { LLMClient } from '../../src/llm/index.js';
import { ScriptedAdapter } from '../../src/llm/testing/index.js';
import { startPipeline } from '../../src/run/engine.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import type { ToolCallItem } from '../../src/tui/run-state.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const DOT = `digraph g {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="go", llm_model="claude-sonnet-4-6"]
  start -> work -> exit
}`;

/**
 * The TUI reads what the real coding agent emits, not a guess of it: a run with the built-in agent
 * session (a scripted model) goes through the TUI's reducer, and the streamed text, the tool call
 * with its output and the token counts all arrive.
 */
test('the events of the built-in agent session fill the activity pane and the usage', async () => {
  const workingDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-tui-agent-')));
  dirs.push(workingDir);
  const client = new LLMClient({
    adapters: [
      new ScriptedAdapter({
        name: 'anthropic',
        turns: [
          { toolCalls: [{ name: 'shell', arguments: { command: 'echo from-the-shell' } }] },
          { text: 'All **done**: the shell said hello.', usage: { cacheReadTokens: 4 } },
        ],
      }),
    ],
  });
  const events: PipelineEvent[] = [];
  const run = startPipeline({
    source: DOT,
    runDir: path.join(workingDir, 'run'),
    backend: createAgentBackend({
      client,
      workingDir,
      providers: configuredProviders({ ANTHROPIC_API_KEY: 'k' }),
      ledger: new UsageLedger(),
    }),
    interviewer: new AutoApproveInterviewer(),
    workingDir,
    durable: false,
    onEvent: (event) => events.push(event),
  });
  expect((await run.result).status).toBe('completed');

  const { graph } = loadPipeline(DOT);
  const state = events.reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
  const activity = state.nodes['work']?.activity ?? [];
  const tool = activity.find((item): item is ToolCallItem => item.kind === 'tool');
  expect(tool).toMatchObject({ name: 'shell', status: 'ok', args: { command: 'echo from-the-shell' } });
  expect(tool?.callId).not.toBe('');
  expect(tool?.output).toContain('from-the-shell');
  const text = activity.filter((item) => item.kind === 'text').map((item) => item.text);
  expect(text.join('')).toBe('All **done**: the shell said hello.');
  expect(state.usage).toMatchObject({ inputTokens: 20, outputTokens: 10, cacheReadTokens: 4 });
  expect(state.usage.model).toMatch(/claude/);
});
