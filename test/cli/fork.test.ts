import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineEventLineSchema } from '../../src/shared/events/event-line-schema.js';
import { runCli } from './run-cli.js';
import { tempPipelines } from './temp-pipelines.js';

const PIPELINE = `digraph forkme {
  graph [vars="mode=slow"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  plan [prompt="Plan"]
  implement [prompt="Implement in $mode mode"]
  check [shape=diamond]
  fast [prompt="Fast"]
  slow [prompt="Slow"]
  start -> plan -> implement -> check
  check -> fast [condition="vars.mode=fast"]
  check -> slow
  fast -> exit
  slow -> exit
}
`;

const files = tempPipelines();
const original = path.join(files.dir, 'runs', 'forkme', 'original');

/** Every file under `dir` with a hash of its content: what "untouched" means. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}

const startedNodes = (runDir: string): string[] =>
  fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; node_id?: string })
    .filter((e) => e.kind === 'node.start')
    .map((e) => String(e.node_id));

beforeAll(async () => {
  const dot = files.write('forkme.dot', PIPELINE);
  const result = await runCli(['run', dot, '--dry-run', '--logs-dir', original]);
  expect(result.code).toBe(0);
  expect(startedNodes(original)).toContain('slow');
}, 30_000);
afterAll(() => files.cleanup());

describe('attractor fork', () => {
  it('runs from the node with the overridden value, skipping the nodes before it, leaving the original be', async () => {
    const before = snapshot(original);
    const forkDir = path.join(files.dir, 'fork-1');
    const result = await runCli([
      'fork',
      original,
      '--from',
      'implement',
      '--set',
      'mode=fast',
      '--logs-dir',
      forkDir,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Forked \S+ at implement: new run \S+ in /);
    expect(result.stdout).toMatch(/^▶ resuming forkme at implement \(forked from run \S+\)/m);
    // Nodes before the fork point are not run again; their records are copied.
    expect(startedNodes(forkDir)).toEqual(['implement', 'check', 'fast', 'exit']);
    expect(fs.existsSync(path.join(forkDir, 'plan', 'status.json'))).toBe(true);
    const checkpoint = JSON.parse(fs.readFileSync(path.join(forkDir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.context['vars.mode']).toBe('fast');
    expect(checkpoint.completed_nodes).toEqual(expect.arrayContaining(['start', 'plan', 'fast']));
    expect(checkpoint.completed_nodes).not.toContain('slow');
    // The prompt saw the new value too ($mode expands from the fork's parameters).
    expect(fs.readFileSync(path.join(forkDir, 'implement', 'prompt.md'), 'utf8')).toContain('fast mode');
    const manifest = JSON.parse(fs.readFileSync(path.join(forkDir, 'manifest.json'), 'utf8'));
    const originManifest = JSON.parse(fs.readFileSync(path.join(original, 'manifest.json'), 'utf8'));
    expect(manifest.run_id).toBe(checkpoint.run_id);
    expect(manifest.run_id).not.toBe(originManifest.run_id);
    expect(manifest.forked_from).toEqual({
      run_id: originManifest.run_id,
      run_dir: original,
      node: 'implement',
    });
    expect(snapshot(original)).toEqual(before);
    // Its event log starts by naming where its earlier records came from.
    const first = JSON.parse(
      fs.readFileSync(path.join(forkDir, 'events.jsonl'), 'utf8').split('\n')[0] ?? '',
    );
    expect(first).toMatchObject({
      kind: 'pipeline.resume',
      data: { resume_at: 'implement', forked_from: { run_id: originManifest.run_id, node: 'implement' } },
    });
    expect(pipelineEventLineSchema.safeParse(first).success).toBe(true);
  });

  it('runs beside the original by default, and `runs` shows the fork', async () => {
    const result = await runCli(['fork', original, '--from', 'check']);
    expect(result.code).toBe(0);
    const listed = await runCli(['runs', path.dirname(original), '--json']);
    const runs = JSON.parse(listed.stdout) as Array<{
      run_dir: string;
      status: string;
      forked_from?: { node: string };
    }>;
    const fork = runs.find((r) => r.forked_from?.node === 'check');
    expect(path.dirname(fork?.run_dir ?? '')).toBe(path.dirname(original));
    expect(fork?.status).toBe('completed');
    expect(startedNodes(fork?.run_dir ?? '')).toEqual(['check', 'slow', 'exit']);
  });

  it('refuses a node the pipeline lacks or the run never reached, saying which it did', async () => {
    const unknown = await runCli(['fork', original, '--from', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /the pipeline has no node "nope" to fork from; its nodes: start, exit, plan/,
    );
    const unreached = await runCli(['fork', original, '--from', 'fast']);
    expect(unreached.code).toBe(1);
    expect(unreached.stderr).toMatch(/never reached "fast".*it reached: plan, implement, check, slow, exit/);
    const missing = await runCli(['fork', files.dir, '--from', 'plan']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not a run directory/);
  });

  it('runs a changed pipeline from the node when given one', async () => {
    const changed = files.write(
      'changed.dot',
      PIPELINE.replace('Implement in $mode mode', 'Implement it properly'),
    );
    const forkDir = path.join(files.dir, 'fork-changed');
    const result = await runCli(['fork', original, changed, '--from', 'implement', '--logs-dir', forkDir]);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(forkDir, 'implement', 'prompt.md'), 'utf8')).toContain(
      'Implement it properly',
    );
    expect(fs.readFileSync(path.join(forkDir, 'pipeline.dot'), 'utf8')).toContain('Implement it properly');
  });
});
