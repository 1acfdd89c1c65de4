import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalExecutionEnvironment } from '../../../src/agent/environment/local-execution-environment.js';
import { ProcessLedger } from '../../../src/shared/process/process-ledger.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('agent shell commands in the run process ledger', () => {
  it('records each command group before it runs (with its token) and forgets it when it is gone', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-agent-ledger-')));
    dirs.push(dir);
    const ledger = ProcessLedger.forRunDir(path.join(dir, 'run'));
    const env = new LocalExecutionEnvironment({ workingDir: dir, processes: ledger, node: 'implement' });
    const result = await env.execCommand(
      `cat run/processes.json > seen.json; echo "$ATTRACTOR_PROCESS_TOKEN"`,
    );
    expect(result.exitCode).toBe(0);
    const seen = JSON.parse(readFileSync(path.join(dir, 'seen.json'), 'utf8'));
    expect(seen.processes).toEqual([
      expect.objectContaining({
        node: 'implement',
        token: result.stdout.trim(),
        command: expect.stringContaining('cat run'),
      }),
    ]);
    expect(new ProcessLedger(ledger.file).entries()).toEqual([]);
  });

  it('never runs a command whose group cannot be recorded', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-agent-ledger-')));
    dirs.push(dir);
    const failing = {
      add: () => {
        throw new Error('disk full');
      },
      remove: () => {},
    };
    const env = new LocalExecutionEnvironment({ workingDir: dir, processes: failing });
    await expect(env.execCommand('touch ran')).rejects.toThrow('disk full');
    // A negative window: the command must never run, so there is no event to wait for.
    await new Promise((r) => setTimeout(r, 200));
    expect(() => readFileSync(path.join(dir, 'ran'))).toThrow();
  });
});

describe('an agent command killed before it reads the ledger handshake', () => {
  it('resets the handshake socket without an uncaught error (the run would crash)', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-agent-ledger-')));
    dirs.push(dir);
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const env = new LocalExecutionEnvironment({
        workingDir: dir,
        processes: { add() {}, remove() {} },
        node: 'implement',
      });
      for (let i = 0; i < 40; i++) {
        const aborted = new AbortController();
        aborted.abort();
        await env.execCommand('sleep 5', { signal: aborted.signal }).catch(() => undefined);
      }
      // A negative window: no uncaught error may follow, so there is no event to wait for.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });
});
