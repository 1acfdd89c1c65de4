import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTool } from '../../../src/actors/tool/run-tool.js';
import { isRunning } from '../../../src/shared/process/find-group-members.js';
import { PROCESS_TOKEN_ENV, ProcessLedger } from '../../../src/shared/process/process-ledger.js';
import { stopLeftoverProcesses } from '../../../src/shared/process/stop-leftover-processes.js';

const dirs: string[] = [];
const pids: number[] = [];
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-ledger-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A process group left behind as a dead engine would leave it: detached, unreferenced, with children. */
function orphanGroup(env: Record<string, string>, script = 'sleep 30 & sleep 30; wait'): number {
  const child = spawn('/bin/sh', ['-c', script], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...env },
  });
  child.unref();
  const pid = child.pid as number;
  pids.push(pid);
  return pid;
}

const waitUntil = async (ok: () => boolean, ms = 5000): Promise<void> => {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const groupMembers = (pgid: number): number[] =>
  fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const stat = fs.readFileSync(`/proc/${n}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === pgid && fields[0] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);

describe('ProcessLedger with runTool', () => {
  it('records the group durably before the command runs, and forgets it when the group is gone', async () => {
    const dir = tempDir();
    const ledger = ProcessLedger.forRunDir(dir);
    const seen = path.join(dir, 'seen.json');
    const result = await runTool({
      command: `cat ${ledger.file} > ${seen}; echo "$${PROCESS_TOKEN_ENV}" > ${seen}.token`,
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '' },
      signal: new AbortController().signal,
      stdoutPath: path.join(dir, 'out.log'),
      stderrPath: path.join(dir, 'err.log'),
      ledger,
      node: 'build',
    });
    expect(result.exitCode).toBe(0);
    const during = JSON.parse(fs.readFileSync(seen, 'utf8'));
    expect(during.processes).toEqual([
      expect.objectContaining({
        pgid: result.pid,
        node: 'build',
        token: fs.readFileSync(`${seen}.token`, 'utf8').trim(),
      }),
    ]);
    expect(new ProcessLedger(ledger.file).entries()).toEqual([]);
  });

  it('never runs the command when the group cannot be recorded', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'ran');
    const failing = {
      add: () => {
        throw new Error('disk full');
      },
      remove: () => {},
    };
    await expect(
      runTool({
        command: `touch ${marker}`,
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '' },
        signal: new AbortController().signal,
        stdoutPath: path.join(dir, 'out.log'),
        stderrPath: path.join(dir, 'err.log'),
        ledger: failing,
      }),
    ).rejects.toThrow('disk full');
    // A negative window: the command must never run, so there is no event to wait for.
    await new Promise((r) => setTimeout(r, 200));
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('ProcessLedger', () => {
  it("a group leaving after its run's folder was deleted does not bring the folder back", () => {
    const runDir = path.join(tempDir(), 'run');
    fs.mkdirSync(runDir);
    const ledger = ProcessLedger.forRunDir(runDir);
    ledger.add({ pgid: 4242, token: 't', node: 'slow', command: 'sleep 20', started_at: 'now' });
    fs.rmSync(runDir, { recursive: true });
    ledger.remove(4242);
    expect(fs.existsSync(runDir)).toBe(false);
    expect(ledger.entries()).toEqual([]);
  });
});

describe('stopLeftoverProcesses', () => {
  it('stops every process of a recorded group (children too) and clears the ledger', async () => {
    const dir = tempDir();
    const token = 'tok-1';
    const pgid = orphanGroup({ [PROCESS_TOKEN_ENV]: token });
    await waitUntil(() => groupMembers(pgid).length >= 3);
    const ledger = ProcessLedger.forRunDir(dir);
    ledger.add({ pgid, token, node: 'test', command: 'sleep', started_at: 'now' });
    const seen: string[] = [];
    const stopped = stopLeftoverProcesses(ProcessLedger.forRunDir(dir), {
      graceMs: 2000,
      onStopped: (g) => seen.push(g.entry.node),
    });
    expect(stopped).toHaveLength(1);
    expect(stopped[0]?.pids.length).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(['test']);
    await waitUntil(() => groupMembers(pgid).length === 0);
    expect(ProcessLedger.forRunDir(dir).entries()).toEqual([]);
  });

  it('leaves alone a group whose processes are not ours (pid reused: no token)', async () => {
    const dir = tempDir();
    const pgid = orphanGroup({});
    await waitUntil(() => groupMembers(pgid).length >= 1);
    const ledger = ProcessLedger.forRunDir(dir);
    ledger.add({ pgid, token: 'ours', node: 'test', command: 'sleep', started_at: 'now' });
    expect(stopLeftoverProcesses(ledger, { graceMs: 200 })).toEqual([]);
    expect(isRunning(pgid)).toBe(true);
    expect(ledger.entries()).toEqual([]);
  });

  it('SIGKILLs processes that ignore SIGTERM once the grace period is over', async () => {
    const dir = tempDir();
    const token = 'tok-2';
    // Ready once the trap is set: a SIGTERM before it would end the shell as any process.
    const ready = path.join(dir, 'trapped');
    const pgid = orphanGroup(
      { [PROCESS_TOKEN_ENV]: token },
      `trap '' TERM; : > '${ready}'; while :; do sleep 0.05; done`,
    );
    await waitUntil(() => fs.existsSync(ready));
    const ledger = ProcessLedger.forRunDir(dir);
    ledger.add({ pgid, token, node: 'stubborn', command: 'loop', started_at: 'now' });
    const [group] = stopLeftoverProcesses(ledger, { graceMs: 300 });
    expect(group?.killed).toBe(true);
    await waitUntil(() => !isRunning(pgid));
  });
});
