import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findGroupMembers, isRunning } from '../../../src/shared/process/find-group-members.js';
import { PROCESS_TOKEN_ENV, ProcessLedger } from '../../../src/shared/process/process-ledger.js';
import { spawnProcessGroup } from '../../../src/shared/process/spawn-process-group.js';
import { stopLeftoverProcesses } from '../../../src/shared/process/stop-leftover-processes.js';
import { ensureDist, ROOT } from '../../helpers/ensure-dist.js';
import { requireBwrap, SANDBOX_AVAILABLE, SANDBOX_REQUIRED } from '../../helpers/sandbox-available.js';
import { tempDir } from '../../helpers/temp-dir.js';

const waitFor = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** The pids of a sandboxed group still alive, seen from the host (token in their environment). */
const members = (ledger: ProcessLedger): number[] =>
  ledger.entries().flatMap((entry) => findGroupMembers(entry.pgid, PROCESS_TOKEN_ENV, entry.token));

describe.runIf(SANDBOX_AVAILABLE || SANDBOX_REQUIRED)('a sandboxed process group and the ledger', () => {
  const policy = (work: string) => ({ writable: [work], hidden: [], egress: [], maxProcesses: 256 });

  it("is recorded before it starts, and resume's clean-up stops it, background children inside included", async () => {
    const work = tempDir();
    const ledger = new ProcessLedger(join(work, 'processes.json'));
    const running = spawnProcessGroup({
      argv: ['/bin/sh', '-c', 'sleep 60 & sleep 60 & echo started; wait'],
      cwd: work,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      killGraceMs: 500,
      record: (pgid, token) =>
        ledger.add({ pgid, token, node: 'n', command: 'sleep', started_at: new Date().toISOString() }),
      release: (pgid) => ledger.remove(pgid),
      sandbox: { bwrap: requireBwrap(), policy: policy(work) },
    });
    // bwrap, its reaper, the shell and two sleeps: all carry the token, all in the recorded group.
    await waitFor(() => members(ledger).length >= 4);
    const pids = members(ledger);
    // What `attractor resume` does after a crash: a fresh ledger read from the file.
    const stopped = stopLeftoverProcesses(new ProcessLedger(ledger.file), { graceMs: 500 });
    expect(stopped[0]?.pids.sort()).toEqual(pids.sort());
    await running;
    expect(pids.filter(isRunning)).toEqual([]);
  }, 30_000);

  // The engine below runs from the build: made before the test's own clock starts.
  beforeAll(() => ensureDist(), 300_000);

  it('dies with the engine (--die-with-parent): a killed engine leaves nothing running in the sandbox', async () => {
    const work = tempDir();
    const ledgerFile = join(work, 'processes.json');
    // An engine of its own, started from the build, that runs a sandboxed command and is then SIGKILLed.
    const engine = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { spawnProcessGroup } = await import(${JSON.stringify(join(ROOT, 'dist/shared/process/spawn-process-group.js'))});
         const { ProcessLedger } = await import(${JSON.stringify(join(ROOT, 'dist/shared/process/process-ledger.js'))});
         const ledger = new ProcessLedger(${JSON.stringify(ledgerFile)});
         await spawnProcessGroup({ argv: ['/bin/sh', '-c', 'sleep 60 & sleep 60'], cwd: ${JSON.stringify(work)},
           env: { PATH: process.env.PATH }, killGraceMs: 500,
           record: (pgid, token) => ledger.add({ pgid, token, node: 'n', command: 'sleep', started_at: '' }),
           sandbox: { bwrap: ${JSON.stringify(requireBwrap())}, policy: ${JSON.stringify(policy(work))} } });`,
      ],
      { stdio: 'ignore' },
    );
    const ledger = () => new ProcessLedger(ledgerFile);
    await waitFor(() => existsSync(ledgerFile) && members(ledger()).length >= 4);
    const pids = members(ledger());
    engine.kill('SIGKILL');
    await waitFor(() => pids.every((pid) => !isRunning(pid)));
    expect(JSON.parse(readFileSync(ledgerFile, 'utf8')).processes).toHaveLength(1);
  }, 30_000);
});
