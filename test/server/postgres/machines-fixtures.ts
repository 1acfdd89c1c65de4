import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { afterEach } from 'vitest';
import type { RunningWorker } from '../../../src/worker/start-worker.js';
import { BIN } from '../../helpers/ensure-dist.js';
import { closeServers } from '../server-fixtures.js';

/**
 * The machines a test file's tests start — `attractor worker` processes, in-process workers and
 * database clients — stopped after each test (a worker process with SIGKILL: it is a machine's death).
 */
export function machinesForEachTest(): {
  clients: pg.Client[];
  workers: RunningWorker[];
  workerProcess(url: string, dataDir: string, leaseSeconds: number, more?: readonly string[]): ChildProcess;
} {
  const children: ChildProcess[] = [];
  const workers: RunningWorker[] = [];
  const clients: pg.Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.end();
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await closeServers();
    for (const worker of workers.splice(0)) await worker.drain(1_000);
  });
  return {
    clients,
    workers,
    /** `attractor worker` as its own process, so it can be SIGKILLed; `more` are further options. */
    workerProcess(url, dataDir, leaseSeconds, more = []) {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'worker',
          '--store',
          url,
          '--data-dir',
          dataDir,
          '--lease-seconds',
          String(leaseSeconds),
          '--allow-tools',
          ...more,
        ],
        { stdio: 'ignore' },
      );
      children.push(child);
      return child;
    },
  };
}

/** A file's text, or '' while it does not exist yet. */
export function readFileOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
