import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist, ROOT } from '../helpers/ensure-dist.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'attractor-tour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function started(stdout: string): string[] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; node_id?: string })
    .filter((e) => e.kind === 'node.start')
    .map((e) => e.node_id ?? '');
}

describe("a newcomer's first run: the tour", () => {
  beforeAll(() => ensureDist(), 180_000);

  it('--dry-run takes the happy path: no "explain what went wrong" detour, quality clean', () => {
    const tour = path.join(ROOT, 'examples', 'tour.dot');
    const r = spawnSync(process.execPath, [BIN, 'run', tour, '--dry-run', '--json', '--logs-dir', 'dry'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(started(r.stdout)).toEqual([
      'start',
      'plan',
      'implement',
      'smoke_test',
      'checked',
      'approve',
      'done',
    ]);
    expect(r.stderr).toMatch(/Completed at done \(quality: clean\)/);
  });

  // Through main() in this process: the same code as the binary above.
  it('a run that really executes the smoke test (it shouts) takes the same path', async () => {
    const tour = path.join(ROOT, 'examples', 'tour.dot');
    writeFileSync(path.join(dir, 'none.json'), '{}');
    const r = await runCli(
      ['run', tour, '--scenario', 'none.json', '--auto-approve', '--json', '--logs-dir', 'real'],
      { cwd: dir, env: process.env },
    );
    expect(r.code).toBe(0);
    expect(started(r.stdout)).toEqual([
      'start',
      'plan',
      'implement',
      'smoke_test',
      'checked',
      'approve',
      'done',
    ]);
  });

  // A real process: the tool command must get this PATH, which only a process's own environment gives it.
  it('a smoke test that really fails takes the explain detour, and the run says it is degraded', () => {
    const tour = path.join(ROOT, 'examples', 'tour.dot');
    writeFileSync(path.join(dir, 'none.json'), '{}');
    // A PATH with tr but no grep: the command runs and exits 127.
    const bin = path.join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(path.join(bin, 'tr'))) symlinkSync(which('tr'), path.join(bin, 'tr'));
    const r = spawnSync(
      process.execPath,
      [BIN, 'run', tour, '--scenario', 'none.json', '--auto-approve', '--json', '--logs-dir', 'failing'],
      { cwd: dir, encoding: 'utf8', input: '', env: { PATH: bin } },
    );
    expect(r.status).toBe(0);
    expect(started(r.stdout)).toEqual([
      'start',
      'plan',
      'implement',
      'smoke_test',
      'checked',
      'explain',
      'approve',
      'done',
    ]);
    expect(r.stderr).toMatch(/Completed at done \(quality: degraded — failed: smoke_test\)/);
  });
});

function which(command: string): string {
  const found = spawnSync('/bin/sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`${command} is not installed`);
  return found;
}
