import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { runCli } from './run-cli.js';

/** A gate with a default and a timeout, in a loop (Revise comes back to it: a second visit). */
const gated = (timeout: string) => `digraph gated {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Ship it?", human.default_choice="R", human.timeout="${timeout}"]
  ship [prompt="Ship"]
  rework [prompt="Rework"]
  exit [shape=Msquare]
  start -> gate
  gate -> ship [label="[A] Approve"]
  gate -> rework [label="[R] Revise"]
  rework -> exit
  ship -> exit
}`;

const LOOP = `digraph loop {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Ship it?"]
  rework [prompt="Rework"]
  exit [shape=Msquare]
  start -> gate
  gate -> exit [label="[A] Approve"]
  gate -> rework [label="[R] Revise"]
  rework -> gate
}`;

const dirs: string[] = [];
const children: ChildProcess[] = [];
beforeAll(() => ensureDist(), 180_000);
// After the file: its tests run concurrently.
afterAll(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `attractor run --no-tui` with stdin closed (/dev/null: CI, a cron job) and no auto-approval. */
function startRun(dot: string, stdin: 'ignore' | 'pipe' = 'ignore') {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-noterm-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'p.dot'), dot);
  writeFileSync(path.join(dir, 's.json'), '{}');
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [BIN, 'run', 'p.dot', '--no-tui', '--scenario', 's.json', '--logs-dir', 'runs'],
    { cwd: dir, stdio: [stdin, 'pipe', 'pipe'], env: { ...process.env, CI: '1' } },
  );
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, ms: Date.now() - started })),
  );
  return { child, runDir: path.join(dir, 'runs'), exited, stderr: () => stderr };
}

/** `attractor resume --no-tui` as a real process answering on stdin, awaited without blocking this worker. */
async function resumeAnswering(runDir: string, input: string) {
  const child = spawn(process.execPath, [BIN, 'resume', runDir, '--no-tui'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  child.stdout.resume();
  child.stdin.end(input);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, stderr };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const questionIds = (runDir: string): string[] => {
  const dir = path.join(runDir, 'questions');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -5))
    : [];
};

/**
 * `attractor attach` in this process (the run is a real process, so the answer still crosses processes;
 * test/cli/answer-channel-process.test.ts runs the attach binary itself).
 */
async function attach(runDir: string, ...args: string[]) {
  const r = await runCli(['attach', runDir, ...args]);
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

function events(runDir: string): Array<{ kind: string; node_id?: string; data: Record<string, unknown> }> {
  return readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

// Concurrent: each test mostly waits on its own run (a gate's timeout, a signal's effect).
describe.concurrent('a human gate without a terminal', () => {
  it('with a default and a timeout, waits the timeout and takes the default (stdin closed)', async () => {
    const run = startRun(gated('2s'));
    const { code, ms } = await run.exited;
    expect(run.stderr()).toContain(
      '[i] gate: stdin is closed; waiting 2s for an answer (attractor attach <run-dir> --answer <key>), then taking the default R',
    );
    expect(code).toBe(0);
    expect(ms).toBeGreaterThanOrEqual(2000);
    const timeout = events(run.runDir).find((e) => e.kind === 'interview.timeout');
    expect(timeout?.data).toMatchObject({ default_choice: 'R', selected: 'R' });
    expect(events(run.runDir).some((e) => e.node_id === 'rework' && e.kind === 'node.complete')).toBe(true);
    // The question is closed: an answer now finds it taken.
    expect(questionIds(run.runDir)).toEqual([]);
    const late = await attach(run.runDir, '--question', 'gate-1', '--answer', 'A');
    expect(late.status).toBe(1);
    expect(late.stderr).toMatch(/question gate-1 is closed: its gate timed out/);
  }, 60_000);

  it('while it waits for its default, `attach --answer` still answers it', async () => {
    const run = startRun(gated('60s'));
    await until('the question file', () => (questionIds(run.runDir).length > 0 ? true : undefined));
    await until('the waiting notice', () =>
      run.stderr().includes('stdin is closed; waiting') ? true : undefined,
    );
    const answered = await attach(run.runDir, '--answer', 'A');
    expect(answered.stdout).toMatch(/Answered gate \(question gate-1\): \[A\] Approve\n/);
    expect(answered.status).toBe(0);
    const { code, ms } = await run.exited;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(60_000);
    expect(events(run.runDir).find((e) => e.kind === 'interview.complete')?.data).toMatchObject({ key: 'A' });
    expect(events(run.runDir).some((e) => e.kind === 'interview.timeout')).toBe(false);
  }, 60_000);

  it('Ctrl-C while a gate waits stops there at once (nothing could finish first); resume asks again', async () => {
    const run = startRun(LOOP, 'pipe');
    await until('the question', () => (run.stderr().includes('Ship it?') ? true : undefined));
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code).toBe(130);
    expect(run.stderr()).toContain('attractor: stopping at gate gate; a resume asks its question again');
    expect(run.stderr()).not.toContain('finishing the current node');
    const checkpoint = JSON.parse(readFileSync(path.join(run.runDir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint).toMatchObject({ current_node: 'gate', status: 'cancelled' });
    expect(events(run.runDir).some((e) => e.kind === 'interview.complete')).toBe(false);
    // Who did each thing: the person at this terminal (decision 0410).
    const me = userInfo().username;
    expect(events(run.runDir).find((e) => e.kind === 'pipeline.start')?.data).toMatchObject({
      started_by: me,
    });
    expect(events(run.runDir).find((e) => e.kind === 'pipeline.cancelled')?.data).toMatchObject({
      cancelled_by: me,
    });

    const resumed = await resumeAnswering(run.runDir, 'A\n');
    expect(resumed.stderr).toContain('Ship it?');
    expect(resumed.status).toBe(0);
    expect(events(run.runDir).find((e) => e.kind === 'interview.complete')?.data).toMatchObject({
      key: 'A',
      answered_by: me,
    });
    expect(events(run.runDir).find((e) => e.kind === 'pipeline.resume')?.data).toMatchObject({
      resumed_by: me,
    });
  }, 60_000);

  it('a second visit asks a new question: the first visit’s id is refused as answered', async () => {
    const run = startRun(LOOP, 'pipe');
    await until('the first question', () => (questionIds(run.runDir).includes('gate-1') ? true : undefined));
    expect((await attach(run.runDir, '--answer', 'R')).status).toBe(0);
    await until('the second question', () => (questionIds(run.runDir).includes('gate-2') ? true : undefined));
    const stale = await attach(run.runDir, '--question', 'gate-1', '--answer', 'A');
    expect(stale.status).toBe(1);
    // Answered by the person at this terminal (decision 0410).
    expect(stale.stderr).toBe(`attractor: question gate-1 was already answered by ${userInfo().username}.\n`);
    expect(questionIds(run.runDir)).toEqual(['gate-2']);
    const current = await attach(run.runDir, '--question', 'gate-2', '--answer', 'A');
    expect(current.status).toBe(0);
    expect((await run.exited).code).toBe(0);
    const keys = events(run.runDir)
      .filter((e) => e.kind === 'interview.complete')
      .map((e) => e.data['key']);
    expect(keys).toEqual(['R', 'A']);
  }, 60_000);
});
