import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { STACK_LINE } from './run-cli.js';

beforeAll(ensureDist, 120_000);

let busy: net.Server;
let port: number;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-serve-port-'));
  busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  port = (busy.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('attractor serve on a port in use', () => {
  it('says so in one line naming the port and --port, exits 1, and leaves the data directory alone', () => {
    const dataDir = path.join(dir, 'data');
    const r = spawnSync(process.execPath, [BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `attractor: port ${port} is already in use on 127.0.0.1: stop what uses it, or choose another port with --port (--port 0 picks a free one).\n`,
    );
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stdout).toBe('');
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
