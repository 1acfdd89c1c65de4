import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunToolOptions, runTool } from '../../../src/actors/tool/run-tool.js';

/** Alive means present and not a zombie (a container's init may never reap orphans). */
function alive(pid: number): boolean {
  const statPath = `/proc/${pid}/stat`;
  if (!existsSync(statPath)) return false;
  const stat = readFileSync(statPath, 'utf8');
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Signals are delivered asynchronously: give the group a moment to go. */
async function eventuallyGone(pid: number, withinMs = 3000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
  return !alive(pid);
}

// Real processes are the point here, so these tests run on real time; each time bound only tells a
// killed process group from one left to finish its `sleep 30`, with a wide margin for a busy machine.
describe('runTool', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'attractor-tool-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (command: string, extra: Partial<RunToolOptions> = {}) =>
    runTool({
      command,
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      signal: new AbortController().signal,
      stdoutPath: join(dir, 'out', 'stdout.log'),
      stderrPath: join(dir, 'out', 'stderr.log'),
      ...extra,
    });

  it.each([
    ['exit 0', 0],
    ['exit 3', 3],
    ['false', 1],
    ['true', 0],
  ])('%s → exit code %d', async (command, code) => {
    const result = await run(command);
    expect(result).toMatchObject({ exitCode: code, timedOut: false, cancelled: false });
  });

  it('streams stdout and stderr to files and keeps a bounded tail', async () => {
    const result = await run('i=0; while [ $i -lt 2000 ]; do echo line$i; i=$((i+1)); done; echo oops >&2', {
      tailBytes: 64,
    });
    const stdout = readFileSync(join(dir, 'out', 'stdout.log'), 'utf8');
    expect(stdout.split('\n')).toHaveLength(2001);
    expect(stdout.startsWith('line0\nline1\n')).toBe(true);
    expect(Buffer.byteLength(result.stdoutTail)).toBeLessThanOrEqual(64);
    expect(result.stdoutTail.endsWith('line1999\n')).toBe(true);
    expect(readFileSync(join(dir, 'out', 'stderr.log'), 'utf8')).toBe('oops\n');
    expect(result.stderrTail).toBe('oops\n');
  });

  it('runs in the given working directory with exactly the given environment', async () => {
    const result = await run('pwd; echo "[$ONLY_THIS][$HOME]"', {
      env: { ONLY_THIS: 'yes', PATH: '/usr/bin:/bin' },
    });
    const [cwd, vars] = result.stdoutTail.trim().split('\n');
    expect(cwd).toBe(dir);
    expect(vars).toBe('[yes][]');
  });

  it('on timeout kills the whole process group, background children included', async () => {
    const started = Date.now();
    const result = await run('sleep 30 & echo $!; sleep 30', { timeoutMs: 300, killGraceMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    const background = Number(result.stdoutTail.trim());
    expect(background).toBeGreaterThan(0);
    expect(await eventuallyGone(background)).toBe(true);
    expect(await eventuallyGone(result.pid!)).toBe(true);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const started = Date.now();
    const result = await run("trap '' TERM; sleep 30 & echo $!; wait", { timeoutMs: 200, killGraceMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.exitSignal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await eventuallyGone(Number(result.stdoutTail.trim()))).toBe(true);
  });

  it('stops on abort and reports it as cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await run('sleep 30 & echo $!; sleep 30', { signal: controller.signal, killGraceMs: 500 });
    expect(result).toMatchObject({ cancelled: true, timedOut: false });
    expect(await eventuallyGone(Number(result.stdoutTail.trim()))).toBe(true);
  });

  it('is cancelled at once when the signal was already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run('sleep 30', { signal: controller.signal });
    expect(result.cancelled).toBe(true);
  });

  it('rejects, without hanging, when the working directory does not exist', async () => {
    await expect(run('true', { cwd: join(dir, 'missing') })).rejects.toThrow(/ENOENT/);
  });

  it('leaves no background process running after the shell exits', async () => {
    const started = Date.now();
    const result = await run('sleep 30 >/dev/null 2>&1 & echo $!', { killGraceMs: 500 });
    expect(result.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await eventuallyGone(Number(result.stdoutTail.trim()))).toBe(true);
  });
});

describe('a command killed before it reads the ledger handshake', () => {
  it('resets the handshake socket without an uncaught error (the run would crash)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attractor-tool-'));
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      // Aborted before it starts: the group is killed at once, mostly before the shell has read the
      // handshake line, and a socket closed with unread data resets (ECONNRESET) on our side.
      for (let i = 0; i < 40; i++) {
        const aborted = new AbortController();
        aborted.abort();
        const result = await runTool({
          command: 'sleep 5',
          cwd: dir,
          env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
          signal: aborted.signal,
          stdoutPath: join(dir, `${i}.out`),
          stderrPath: join(dir, `${i}.err`),
          killGraceMs: 10,
          ledger: { add() {}, remove() {} },
        });
        expect(result.cancelled).toBe(true);
      }
      // A negative window: no uncaught error may follow, so there is no event to wait for.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
