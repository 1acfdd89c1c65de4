import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { tempPipelines } from './temp-pipelines.js';

const tmp = tempPipelines();
afterAll(() => tmp.cleanup());

/** The tool node fails while input.txt is missing (a transient cause: a file not there yet). */
const PIPELINE = `digraph needs_input {
  start [shape=Mdiamond]
  prepare [shape=parallelogram, tool_command="echo prepared > prepared.txt"]
  read [shape=parallelogram, tool_command="cat input.txt", max_retries=1]
  after [shape=parallelogram, tool_command="echo done > after.txt"]
  exit [shape=Msquare]
  start -> prepare -> read -> after -> exit
}`;

/** An LLM node: a real run of it needs a provider key. */
const LLM_PIPELINE = `digraph llm {
  start [shape=Mdiamond]
  write [prompt="Write it"]
  exit [shape=Msquare]
  start -> write -> exit
}`;

type Event = { kind: string; node_id?: string; data: Record<string, unknown> };
const events = (runDir: string): Event[] =>
  readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Event);

describe('attractor resume of a failed run', () => {
  it('starts again at the node that failed, after saying so, and completes once the cause is gone', async () => {
    const dir = path.join(tmp.dir, 'missing-file');
    const write = (name: string, text: string) => writeFileSync(path.join(dir, name), text);
    rmSync(dir, { recursive: true, force: true });
    await import('node:fs').then((fs) => fs.mkdirSync(dir, { recursive: true }));
    write('p.dot', PIPELINE);
    write('s.json', '{}');
    const first = await runCli(['run', 'p.dot', '--scenario', 's.json', '--logs-dir', 'runs'], { cwd: dir });
    expect(first.code).toBe(1);
    // Its last lines say how to go on: resume it, or fork a new run from the node that failed.
    expect(first.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      'Resume with: attractor resume "runs" (starts again at read)',
      'Fork with:   attractor fork "runs" --from read',
    ]);
    const runDir = path.join(dir, 'runs');
    const failed = JSON.parse(readFileSync(path.join(runDir, 'checkpoint.json'), 'utf8'));
    expect(failed).toMatchObject({ status: 'failed', failure: { node: 'read' } });

    write('input.txt', 'here now\n');
    const resumed = await runCli(['resume', 'runs'], { cwd: dir });
    expect(resumed.stderr).toMatch(
      /^attractor: run \S+ failed at read \(.+\); resuming there, with its retries renewed\.\n/,
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/Completed at exit \(quality: clean\)/);
    const second = events(runDir);
    const resume = second.find((e) => e.kind === 'pipeline.resume');
    expect(resume?.data).toMatchObject({ resume_at: 'read', after_failure: { node: 'read' } });
    // The nodes that had completed are not run again; the failed one and the rest are.
    const started = second
      .slice(second.indexOf(resume as Event))
      .filter((e) => e.kind === 'node.start')
      .map((e) => e.node_id);
    expect(started).toEqual(['read', 'after', 'exit']);
    expect(readFileSync(path.join(dir, 'after.txt'), 'utf8')).toBe('done\n');
    const done = JSON.parse(readFileSync(path.join(runDir, 'checkpoint.json'), 'utf8'));
    expect(done).toMatchObject({ status: 'completed', failed_nodes: [] });
    expect(done).not.toHaveProperty('failure');
  });

  it('a completed run says so and exits 0 before any provider key is asked for', async () => {
    const dir = path.join(tmp.dir, 'completed');
    await import('node:fs').then((fs) => fs.mkdirSync(dir, { recursive: true }));
    writeFileSync(path.join(dir, 'p.dot'), LLM_PIPELINE);
    expect((await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs'], { cwd: dir })).code).toBe(0);
    // As if it had been a real run: a resume would check the provider keys of its LLM node.
    const manifestFile = path.join(dir, 'runs', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    writeFileSync(
      manifestFile,
      JSON.stringify({ ...manifest, options: { ...manifest.options, dry_run: false } }),
    );
    const again = await runCli(['resume', 'runs'], { cwd: dir, env: {} });
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(/^Run \S+ already completed at exit; nothing to resume\.\n$/);
    expect(again.code).toBe(0);
  });
});
