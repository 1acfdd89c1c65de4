import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../../helpers/fake-anthropic-server.js';
import { runCli } from '../run-cli.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TWO_NODES = `digraph costly {
  start [shape=Mdiamond]; exit [shape=Msquare];
  plan [prompt="Plan it", llm_model="claude-sonnet-4-6"];
  write [prompt="Write it", llm_model="claude-sonnet-4-6"];
  start -> plan -> write -> exit;
}`;

describe('plain output of a real run says what it cost', () => {
  it('prints each node’s tokens and cost, the models up front, and the totals with the models last', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-cost-')));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'costly.dot'), TWO_NODES);
    const server = await startFakeAnthropicServer();
    cleanups.push(() => server.close());
    const usage = { input_tokens: 1000, output_tokens: 50 };
    server.enqueue(
      anthropicStreamReply({ content: [{ type: 'text', text: 'Planned.' }], usage }),
      anthropicStreamReply({ content: [{ type: 'text', text: 'Written.' }], usage }),
    );
    const env = { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin };
    const result = await runCli(['run', 'costly.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(0);
    // Before the first call: which model each node uses (not only with --verbose).
    expect(result.stderr).toContain('attractor: plan: agent model claude-sonnet-4-6 via anthropic');
    expect(result.stderr).toContain('attractor: write: agent model claude-sonnet-4-6 via anthropic');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.find((l) => l.includes('✓ plan'))).toMatch(/✓ plan success.* \(1,050 tokens, \$0\.\d{4}\)$/);
    expect(lines.find((l) => l.includes('✓ write'))).toMatch(/\(1,050 tokens, \$0\.\d{4}\)$/);
    expect(lines.at(-2)).toMatch(/^Completed at exit/);
    expect(lines.at(-1)).toMatch(/^Cost: \$0\.\d{4} — 2,100 tokens in 2 model calls \(claude-sonnet-4-6\)$/);
  });

  it('a dry run, which calls no model, prints no cost', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-cost-')));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'costly.dot'), TWO_NODES);
    const result = await runCli(['run', 'costly.dot', '--dry-run', '--logs-dir', 'run'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/tokens|Cost:/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Completed at exit/);
  });
});
