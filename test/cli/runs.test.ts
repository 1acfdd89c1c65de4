import fs from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { tempPipelines, VALID_PIPELINE } from './temp-pipelines.js';

const GATED = `digraph gated {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Work"]
  review [shape=hexagon, label="Ship it?"]
  start -> work -> review
  review -> exit [label="[Y] Yes"]
  review -> work [label="[N] No"]
}
`;

const files = tempPipelines();
/** Who a CLI run says started it: the OS user (decision 0410). */
const ME = userInfo().username;
const root = path.join(files.dir, 'runs');

function editCheckpoint(runDir: string, change: Record<string, unknown>): void {
  const file = path.join(runDir, 'checkpoint.json');
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...change }));
}

beforeAll(async () => {
  const ok = files.write('ok.dot', VALID_PIPELINE);
  const gated = files.write('gated.dot', GATED);
  for (const [dot, dir] of [
    [ok, 'ok/done'],
    [gated, 'gated/waits'],
    [gated, 'gated/killed'],
  ] as const) {
    const result = await runCli(['run', dot, '--dry-run', '--logs-dir', path.join(root, dir)]);
    expect(result.code).toBe(0);
  }
  // A run waiting at its gate: a live process (our parent) holds its lock, its question is open.
  const waits = path.join(root, 'gated/waits');
  editCheckpoint(waits, { status: 'running', current_node: 'review' });
  fs.writeFileSync(path.join(waits, 'run.lock'), `${process.ppid}\n`);
  fs.mkdirSync(path.join(waits, 'questions'), { recursive: true });
  fs.writeFileSync(
    path.join(waits, 'questions', 'review-1.json'),
    JSON.stringify({
      id: 'review-1',
      node_id: 'review',
      asked_at: new Date().toISOString(),
      question: { text: 'Ship it?', type: 'multiple_choice', options: [{ key: 'Y', label: 'Yes' }] },
    }),
  );
  // A run whose process died mid-node: its checkpoint says running, its lock names a dead pid.
  const killed = path.join(root, 'gated/killed');
  editCheckpoint(killed, { status: 'running', current_node: 'work' });
  fs.writeFileSync(path.join(killed, 'run.lock'), '999999\n');
  // A fork of the finished run, from its work node.
  const fork = await runCli(['fork', path.join(root, 'ok/done'), '--from', 'work', '--dry-run']);
  expect(fork.code).toBe(0);
}, 30_000);
afterAll(() => files.cleanup());

describe('attractor runs', () => {
  it('lists every run with its status read from its directory', async () => {
    const result = await runCli(['runs', root, '--json']);
    expect(result.code).toBe(0);
    const runs = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    const byDir = Object.fromEntries(runs.map((r) => [path.relative(root, String(r['run_dir'])), r]));
    const forkDir = Object.keys(byDir).find((dir) => dir.startsWith('ok/') && dir !== 'ok/done');
    expect(Object.keys(byDir).sort()).toEqual(['gated/killed', 'gated/waits', 'ok/done', forkDir].sort());
    expect(byDir['ok/done']).toMatchObject({ pipeline: 'ok', status: 'completed', current_node: 'exit' });
    expect(byDir['gated/waits']).toMatchObject({
      pipeline: 'gated',
      status: 'waiting',
      current_node: 'review',
    });
    expect(byDir['gated/killed']).toMatchObject({ status: 'interrupted', current_node: 'work' });
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'ok/done/manifest.json'), 'utf8'));
    expect(byDir['ok/done']?.['id']).toBe(manifest.run_id);
    expect(typeof byDir['ok/done']?.['duration_ms']).toBe('number');
  });

  it('says how each run ended, who started it, and where a fork came from (--json)', async () => {
    const runs = JSON.parse((await runCli(['runs', root, '--json'])).stdout) as Array<
      Record<string, unknown>
    >;
    const done = runs.find((r) => r['run_dir'] === path.join(root, 'ok/done'));
    const fork = runs.find((r) => r['forked_from'] !== undefined);
    expect(done).toMatchObject({ quality: 'clean', started_by: ME });
    expect(done).not.toHaveProperty('forked_from');
    expect(fork).toMatchObject({
      status: 'completed',
      quality: 'clean',
      forked_from: { run_id: done?.['id'], node: 'work' },
      started_by: ME,
      forked_by: ME,
    });
    // Still running: no ending to tell yet.
    expect(runs.find((r) => r['status'] === 'waiting')).not.toHaveProperty('quality');
  });

  it('filters by --status and prints a table', async () => {
    const result = await runCli(['runs', root, '--status', 'waiting']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^ID\s+PIPELINE\s+STATUS\s+QUALITY\s+NODE\s+STARTED \(UTC\)\s+DURATION\s+COST\s+BY\s+FORKED FROM$/,
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/gated\s+waiting\s+review\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+\d/);
  });

  it('shows the quality, who started a run and the fork marker in the table', async () => {
    const lines = (await runCli(['runs', root, '--status', 'completed'])).stdout.trimEnd().split('\n');
    const [done, fork] = [
      lines.find((l) => !/ @ /.test(l) && / ok /.test(l)),
      lines.find((l) => / @ work$/.test(l)),
    ];
    expect(done).toMatch(new RegExp(`ok\\s+completed\\s+clean\\s+exit\\s.*\\s${ME}$`));
    expect(fork).toMatch(new RegExp(`ok\\s+completed\\s+clean\\s+exit\\s.*\\s${ME}\\s+\\S+ @ work$`));
  });

  it('says when nothing matches, and refuses an unknown status or a missing root', async () => {
    expect((await runCli(['runs', root, '--status', 'paused'])).stdout).toBe(
      `No paused runs under ${root}.\n`,
    );
    const bad = await runCli(['runs', root, '--status', 'sleeping']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/sleeping.*running, waiting/s);
    const missing = await runCli(['runs', path.join(files.dir, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no such directory/);
  });

  it('lists nothing, without an error, before the first run', async () => {
    const result = await runCli(['runs'], { cwd: files.dir });
    expect(result).toMatchObject({ code: 0, stdout: 'No runs under .attractor-runs.\n' });
  });
});
