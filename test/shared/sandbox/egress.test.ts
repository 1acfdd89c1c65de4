import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnProcessGroup } from '../../../src/shared/process/spawn-process-group.js';
import { hostAllowed } from '../../../src/shared/sandbox/egress-proxy.js';
import { requireBwrap, SANDBOX_AVAILABLE, SANDBOX_REQUIRED } from '../../helpers/sandbox-available.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('hostAllowed', () => {
  it.each([
    ['github.com', ['github.com'], true],
    ['GitHub.com', ['github.com'], true],
    ['api.github.com', ['github.com'], false],
    ['api.github.com', ['*.github.com'], true],
    ['github.com.evil.net', ['github.com'], false],
    ['evilgithub.com', ['*.github.com'], false],
    ['localhost', [], false],
  ])('%s with %j → %s', (host, allowed, expected) => {
    expect(hostAllowed(host, allowed)).toBe(expected);
  });
});

describe.runIf(SANDBOX_AVAILABLE || SANDBOX_REQUIRED)('egress through the proxy (sandbox_egress)', () => {
  let server: Server;
  let port: number;
  const work = tempDir('attractor-egress-work-');
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('REACHED-THROUGH-PROXY\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const run = async (command: string, egress: string[]) => {
    let output = '';
    const exit = await spawnProcessGroup({
      argv: ['/bin/sh', '-c', command],
      cwd: work,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: join(work, 'home') },
      killGraceMs: 500,
      timeoutMs: 20_000,
      onStdout: (chunk) => {
        output += chunk.toString();
      },
      onStderr: (chunk) => {
        output += chunk.toString();
      },
      sandbox: { bwrap: requireBwrap(), policy: { writable: [work], hidden: [], egress, maxProcesses: 256 } },
    });
    return { exit, output };
  };

  it.each([
    { how: 'plain HTTP', url: () => `http://localhost:${port}/` },
    { how: 'a CONNECT tunnel', url: () => `http://localhost:${port}/`, flags: '--proxytunnel' },
  ])(
    'a named host is reached by name through $how',
    async ({ url, flags }) => {
      const { exit, output } = await run(`curl -sSf -m 10 ${flags ?? ''} ${url()}`, ['localhost']);
      expect(output).toContain('REACHED-THROUGH-PROXY');
      expect(exit.code).toBe(0);
    },
    30_000,
  );

  it('a host not named is refused by the proxy, and the note names it and how to allow it', async () => {
    const { exit, output } = await run(`curl -sSf -m 10 http://localhost:${port}/`, ['github.com']);
    expect(output).not.toContain('REACHED-THROUGH-PROXY');
    expect(exit.code).not.toBe(0);
    expect(exit.sandboxNote).toBe(
      `sandbox: blocked a connection to localhost:${port}; allow it with sandbox_egress="localhost" (graph or node)`,
    );
  }, 30_000);

  it('the address of a named host is not a way around the list (127.0.0.1 is not "localhost")', async () => {
    const { exit, output } = await run(
      `curl -sSf -m 10 --noproxy '' --proxytunnel http://127.0.0.1:${port}/`,
      ['localhost'],
    );
    expect(output).not.toContain('REACHED-THROUGH-PROXY');
    expect(exit.sandboxNote).toContain('blocked a connection to 127.0.0.1');
  }, 30_000);

  it('a direct connection, around the proxy, finds no network', async () => {
    const { exit, output } = await run(`curl -sS -m 10 --noproxy '*' http://localhost:${port}/`, [
      'localhost',
    ]);
    expect(output).not.toContain('REACHED-THROUGH-PROXY');
    expect(exit.code).not.toBe(0);
  }, 30_000);
});
