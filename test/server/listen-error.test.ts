import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start-server.js';
import { AttractorError } from '../../src/shared/errors.js';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';

beforeAll(ensureDist, 120_000);

// Addresses no machine of the suite has: a name that never resolves, a number that is no IPv4
// address, an address from the documentation range (RFC 5737) not assigned here.
const UNUSABLE = [
  ['a host name that does not resolve', 'no-such-host.invalid'],
  ['an address that is not one', '999.1.1.1'],
  ['an address this machine does not have', '192.0.2.77'],
] as const;

describe('a --host the server cannot listen on', () => {
  it.each(UNUSABLE)('%s is a HOST_UNUSABLE error naming it', async (_what, host) => {
    const error = await startServer({ host, port: 0, token: 't', dataDir: tempDir() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AttractorError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'HOST_UNUSABLE' });
    expect(String((error as Error).message)).toContain(`--host ${host}`);
  });

  it('`attractor serve` says so in one line, not as a bug', () => {
    const dataDir = tempDir();
    const result = spawnSync(
      process.execPath,
      [BIN, 'serve', '--host', '192.0.2.77', '--port', '0', '--token', 't', '--data-dir', dataDir],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 },
    );
    expect(result.status).not.toBe(0);
    expect(result.status).not.toBe(70);
    expect(result.stderr).toContain('--host 192.0.2.77: this machine has no such address');
    expect(result.stderr).not.toMatch(/internal error|a bug/);
  });
});
