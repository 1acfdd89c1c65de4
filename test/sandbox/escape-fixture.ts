import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A host a hostile pipeline would like to reach: secrets, servers, processes, other runs. */
export interface EscapeHost {
  root: string;
  work: string;
  home: string;
  outside: string;
  /** Hidden from commands: the runs folder and a server's data dir, both inside the working tree. */
  hidden: string[];
  env: Record<string, string>;
  httpPort: number;
  pgSocket: string;
  /** A process outside any sandbox, holding a server's token and provider key in its environment. */
  victim: ChildProcess;
  serverToken: string;
  close(): Promise<void>;
}

const listen = (server: Server, at: number | string): Promise<void> =>
  new Promise((resolve) =>
    typeof at === 'number' ? server.listen(at, '127.0.0.1', resolve) : server.listen(at, resolve),
  );

/** In `root`, a folder the caller made in its describe body (tempDir), so it is removed after its tests. */
export async function makeEscapeHost(root: string): Promise<EscapeHost> {
  const work = join(root, 'work');
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  for (const dir of [
    work,
    join(home, '.ssh'),
    join(home, '.aws'),
    outside,
    join(work, '.attractor-runs/g/other-run'),
    join(work, '.attractor-server'),
  ]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(home, '.ssh/id_rsa'), 'FAKE-SSH-KEY\n');
  writeFileSync(join(home, '.aws/credentials'), 'FAKE-AWS-KEY\n');
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
  writeFileSync(join(work, '.attractor-runs/g/other-run/secret.txt'), 'OTHER-RUN-SECRET\n');
  writeFileSync(join(work, '.attractor-server/token'), 'SERVER-DATA-TOKEN\n');
  execFileSync('git', ['init', '-q', work]);
  const http = createServer((_req, res) => res.end('HOST-SERVER-OK\n'));
  await listen(http, 0);
  const pgSocket = join(outside, '.s.PGSQL.5432');
  const pg = createServer((_req, res) => res.end('PG-SOCKET-OK\n'));
  await listen(pg, pgSocket);
  const serverToken = `SERVER-TOKEN-${randomUUID()}`;
  const victim = spawn('sleep', ['600'], {
    env: { ...process.env, ATTRACTOR_TOKEN: serverToken, ANTHROPIC_API_KEY: `sk-ant-${serverToken}` },
    stdio: 'ignore',
  });
  return {
    root,
    work,
    home,
    outside,
    hidden: [join(work, '.attractor-runs'), join(work, '.attractor-server')],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' },
    httpPort: (http.address() as AddressInfo).port,
    pgSocket,
    victim,
    serverToken,
    close: async () => {
      victim.kill('SIGKILL');
      await Promise.all([new Promise((r) => http.close(r)), new Promise((r) => pg.close(r))]);
    },
  };
}
