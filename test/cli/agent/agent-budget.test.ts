import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARIZATION_PROMPT } from '../../../src/actors/agent/session/compact-history.js';
import {
  anthropicJsonReply,
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

async function setup(
  dot: string,
): Promise<{ dir: string; server: ScriptedServer; env: Record<string, string> }> {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-budget-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startFakeAnthropicServer();
  cleanups.push(() => server.close());
  writeFileSync(path.join(dir, 'p.dot'), dot);
  return { dir, server, env: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin } };
}

/** A first turn that fills `input` of claude-sonnet-4-6's 200,000-token window, then a text answer. */
function fillingTurns(input: number) {
  return [
    anthropicStreamReply({
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: { path: 'a.txt', content: 'a' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: input, output_tokens: 40 },
    }),
    anthropicStreamReply({
      content: [{ type: 'text', text: 'Done.' }],
      usage: { input_tokens: 900, output_tokens: 5 },
    }),
  ];
}

/** A task long enough that there is an older turn to summarise (about 70,000 tokens of it). */
const TASK = 'Refactor the module as described here. '.repeat(7_200);

const kindsIn = (dir: string): string[] =>
  readFileSync(path.join(dir, 'run', 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { kind: string }).kind);

const systemOf = (body: unknown): string => JSON.stringify((body as { system?: unknown }).system ?? '');

describe('the agent’s output budget and context window in a run', () => {
  it('a node’s max_tokens is what a request asks for; a context past compaction’s threshold is only a warning', async () => {
    const { dir, server, env } = await setup(
      'digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; work [prompt="@task.md", llm_model="claude-sonnet-4-6", max_tokens=20000]; start -> work -> exit }',
    );
    writeFileSync(path.join(dir, 'task.md'), TASK);
    server.enqueue(...fillingTurns(185_000));
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(0);
    const [first, second] = server.requests.map((r) => (r.body as { max_tokens: number }).max_tokens);
    expect(first).toBe(20_000);
    // 185,000 of the 200,000-token window are taken: the second asks only for what is left.
    expect(second).toBeLessThan(15_000);
    expect(second).toBeGreaterThan(10_000);
    const kinds = kindsIn(dir);
    expect(kinds).toContain('agent.context_window_warning');
    expect(kinds).not.toContain('agent.compaction');
    // No extra, billed summarising call: two requests, both the agent's own.
    expect(server.requests).toHaveLength(2);
    expect(server.requests.some((r) => systemOf(r.body).includes('You compress the history'))).toBe(false);
    expect(result.stdout).toMatch(/! work Context usage at ~93% of context window/);
  });

  it('auto_compact=true on the graph summarises older turns when the next request would not fit', async () => {
    const { dir, server, env } = await setup(
      'digraph p { graph [auto_compact=true]; start [shape=Mdiamond]; exit [shape=Msquare]; work [prompt="@task.md", llm_model="claude-sonnet-4-6"]; start -> work -> exit }',
    );
    writeFileSync(path.join(dir, 'task.md'), TASK);
    const [first, last] = fillingTurns(185_000);
    server.enqueue(
      first!,
      anthropicJsonReply({
        content: [{ type: 'text', text: 'Wrote a.txt.' }],
        usage: { input_tokens: 300, output_tokens: 20 },
      }),
      last!,
    );
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(systemOf(server.requests[1]!.body)).toContain(SUMMARIZATION_PROMPT.slice(0, 40));
    expect(kindsIn(dir)).toContain('agent.compaction');
    expect(result.stdout).toMatch(
      /! work context compacted: \d+ older turns summarised by an extra model call/,
    );
  });
});
