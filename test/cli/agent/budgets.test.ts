import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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

async function setup(
  dot: string,
): Promise<{ dir: string; server: ScriptedServer; env: Record<string, string> }> {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-budget-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'p.dot'), dot);
  const server = await startFakeAnthropicServer();
  cleanups.push(() => server.close());
  return { dir, server, env: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin } };
}

const text = (said: string, usage = { input_tokens: 10, output_tokens: 5 }) =>
  anthropicStreamReply({ content: [{ type: 'text', text: said }], usage });
const modelsAsked = (server: ScriptedServer): unknown[] =>
  server.requests.map((r) => (r.body as { model?: unknown }).model);

describe('a key and no --model', () => {
  it("runs the provider's balanced model, not its most expensive, and says so before the run", async () => {
    const { dir, server, env } = await setup(
      'digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; a [prompt="x"]; start -> a -> exit }',
    );
    server.enqueue(text('done'));
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(modelsAsked(server)).toEqual(['claude-sonnet-4-6']);
    const first = result.stderr.split('\n')[0];
    expect(first).toContain('a: agent model claude-sonnet-4-6 via anthropic (anthropic’s balanced default');
  });
});

describe("a node's own max_cost_usd", () => {
  const PIPELINE = `digraph p { start [shape=Mdiamond]; exit [shape=Msquare];
    a [prompt="x", llm_model="claude-sonnet-4-6", max_cost_usd=0.1];
    b [prompt="y", llm_model="claude-sonnet-4-6"];
    start -> a -> b -> exit }`;

  it('fails that visit once it costs more, stopping its agent; the run has no budget of its own', async () => {
    const { dir, server, env } = await setup(PIPELINE);
    // 100k input tokens of claude-sonnet-4-6 cost $0.30, over the node's $0.10: no second call.
    server.enqueue(
      anthropicStreamReply({
        content: [{ type: 'tool_use', id: 't1', name: 'write_file', input: { path: 'a.txt', content: 'a' } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 100_000, output_tokens: 0 },
      }),
      text('should not be asked'),
    );
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(result.stdout).toContain('node a cost $0.3000, over its own budget of $0.1000 (max_cost_usd)');
    const status = JSON.parse(readFileSync(path.join(dir, 'run', 'a', 'status.json'), 'utf8'));
    expect(status).toMatchObject({ outcome: 'fail' });
  });

  it('lets a visit within it go on to the next node', async () => {
    const { dir, server, env } = await setup(PIPELINE);
    server.enqueue(text('a done'), text('b done'));
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });
});

describe('a model without a known price under a budget', () => {
  // A model the catalog knows only by name: no price.
  const PIPELINE = `digraph p { start [shape=Mdiamond]; exit [shape=Msquare];
    a [prompt="x", llm_model="claude-opus-5-5"]; start -> a -> exit }`;

  it.each([
    [['--max-cost', '1'], 'a budget of $1.00'],
    [[], 'nodes with max_cost_usd'],
  ])('is refused before the run (%j), naming the model and the way out', async (flags, budget) => {
    const source = flags.length > 0 ? PIPELINE : PIPELINE.replace('llm_model=', 'max_cost_usd=1, llm_model=');
    const { dir, server, env } = await setup(source);
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run', ...flags], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `the run has ${budget}, but the model catalog has no price for claude-opus-5-5 (node a)`,
    );
    expect(result.stderr).toContain('--allow-unpriced');
    expect(server.requests).toHaveLength(0);
  });

  it('runs with --allow-unpriced, and without a budget as before', async () => {
    for (const flags of [['--max-cost', '1', '--allow-unpriced'], []]) {
      const { dir, server, env } = await setup(PIPELINE);
      server.enqueue(text('done'));
      const result = await runCli(['run', 'p.dot', '--logs-dir', 'run', ...flags], { cwd: dir, env });
      expect(result.code).toBe(0);
      expect(modelsAsked(server)).toEqual(['claude-opus-5-5']);
    }
  });
});
