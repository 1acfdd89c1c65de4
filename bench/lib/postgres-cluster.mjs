// A throwaway PostgreSQL cluster for tests and benchmarks: initdb into a temp folder, started on a free
// port with its unix socket in that folder, fsync off (nothing here survives a power cut on purpose),
// stopped and deleted by `stop()`. PostgreSQL refuses to run as root, so as root it runs as the
// `postgres` user, whom the folder then belongs to.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The newest installed PostgreSQL's bin folder (Debian: /usr/lib/postgresql/<major>/bin), if any. */
export function postgresBin() {
  const fromEnv = process.env.ATTRACTOR_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], 'bin') : undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(address.port));
    });
  });
}

export async function startPostgresCluster() {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/<major>/bin/initdb)');
  const dir = mkdtempSync(join(tmpdir(), 'attractor-pg-'));
  const dataDir = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command, args) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0)
      throw new Error(
        `${command} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`,
      );
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  let started = false;
  try {
    run('initdb', ['-D', dataDir, '--auth=trust', '--username=postgres', '--no-sync', '-E', 'UTF8']);
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=''",
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    run('pg_ctl', ['-D', dataDir, '-o', settings, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    started = true;
    const urlFor = (db) => `postgres://postgres@localhost:${port}/${db}?host=${encodeURIComponent(dir)}`;
    return {
      url: urlFor('postgres'),
      port,
      socketDir: dir,
      async createDatabase(name) {
        const client = new pg.Client({ connectionString: urlFor('postgres') });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
        } finally {
          await client.end();
        }
        return urlFor(name);
      },
      async stop() {
        try {
          run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    if (started) {
      const stop = [join(bin, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', 'stop'];
      if (asRoot) spawnSync('runuser', ['-u', 'postgres', '--', ...stop]);
      else spawnSync(stop[0], stop.slice(1));
    }
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
