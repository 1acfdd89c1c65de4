import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalExecutionEnvironment } from '../../../src/agent/environment/local-execution-environment.js';
import { alive, eventuallyGone, useWorkspace } from '../tools/tool-fixtures.js';

describe('LocalExecutionEnvironment: path confinement', () => {
  const ws = useWorkspace();
  let outside: string;
  beforeEach(() => {
    outside = mkdtempSync(join(tmpdir(), 'attractor-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'top secret');
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  it('resolves relative and absolute paths inside the working directory', async () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'A');
    expect(await ws.env.resolvePath('a.txt')).toBe(join(ws.dir, 'a.txt'));
    expect(await ws.env.resolvePath(join(ws.dir, 'a.txt'))).toBe(join(ws.dir, 'a.txt'));
    expect(await ws.env.resolvePath('sub/../new/file.txt')).toBe(join(ws.dir, 'new/file.txt'));
    expect(await ws.env.readFile('./a.txt')).toBe('A');
  });

  it.each([
    ['a parent path', () => '../secret.txt'],
    ['a deep parent path', () => 'x/../../../../etc/passwd'],
    ['an absolute path elsewhere', () => '/etc/passwd'],
  ])('refuses %s', async (_label, target) => {
    await expect(ws.env.readFile(target())).rejects.toMatchObject({ code: 'agent.path_outside_workdir' });
    await expect(ws.env.writeFile(target(), 'x')).rejects.toMatchObject({
      code: 'agent.path_outside_workdir',
    });
  });

  it('refuses a symlink that leads out, for reading and for writing', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(ws.dir, 'link.txt'));
    symlinkSync(outside, join(ws.dir, 'linkdir'));
    await expect(ws.env.readFile('link.txt')).rejects.toMatchObject({ code: 'agent.path_outside_workdir' });
    await expect(ws.env.writeFile('link.txt', 'pwned')).rejects.toMatchObject({
      code: 'agent.path_outside_workdir',
    });
    await expect(ws.env.writeFile('linkdir/new.txt', 'pwned')).rejects.toMatchObject({
      code: 'agent.path_outside_workdir',
    });
    await expect(ws.env.listDirectory('linkdir')).rejects.toMatchObject({
      code: 'agent.path_outside_workdir',
    });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('refuses a dangling symlink whose target is outside (a write would create it there)', async () => {
    symlinkSync(join(outside, 'not-yet.txt'), join(ws.dir, 'dangling'));
    await expect(ws.env.writeFile('dangling', 'x')).rejects.toMatchObject({
      code: 'agent.path_outside_workdir',
    });
  });

  it('allows a symlink that stays inside', async () => {
    mkdirSync(join(ws.dir, 'real'));
    writeFileSync(join(ws.dir, 'real', 'f.txt'), 'inside');
    symlinkSync(join(ws.dir, 'real'), join(ws.dir, 'alias'));
    expect(await ws.env.readFile('alias/f.txt')).toBe('inside');
  });

  it('refuses a working directory for commands outside', async () => {
    await expect(ws.env.execCommand('pwd', { workingDir: outside })).rejects.toMatchObject({
      code: 'agent.path_outside_workdir',
    });
  });
});

describe('LocalExecutionEnvironment: files and searches', () => {
  const ws = useWorkspace();

  it('writes atomically with parents, reads, and reports missing files as typed errors', async () => {
    await ws.env.writeFile('deep/er/f.txt', 'hello');
    expect(readFileSync(join(ws.dir, 'deep/er/f.txt'), 'utf8')).toBe('hello');
    expect(await ws.env.fileExists('deep/er/f.txt')).toBe(true);
    expect(await ws.env.fileExists('nope.txt')).toBe(false);
    await expect(ws.env.readFile('nope.txt')).rejects.toMatchObject({
      code: 'agent.file_not_found',
      message: 'Error: file not found: nope.txt',
    });
    await expect(ws.env.readFile('deep')).rejects.toMatchObject({ code: 'agent.is_a_directory' });
  });

  it('applyChanges writes and deletes together', async () => {
    writeFileSync(join(ws.dir, 'old.txt'), 'old');
    await ws.env.applyChanges([
      { path: 'n/new.txt', content: 'new' },
      { path: 'old.txt', content: null },
    ]);
    expect(readFileSync(join(ws.dir, 'n/new.txt'), 'utf8')).toBe('new');
    expect(await ws.env.fileExists('old.txt')).toBe(false);
  });

  it('lists directories to a depth, directories first', async () => {
    mkdirSync(join(ws.dir, 'src/inner'), { recursive: true });
    writeFileSync(join(ws.dir, 'src/inner/x.ts'), 'xx');
    writeFileSync(join(ws.dir, 'b.txt'), 'bbb');
    const one = await ws.env.listDirectory('.');
    expect(one.map((e) => [e.path, e.isDir, e.size, e.depth])).toEqual([
      ['src', true, 0, 1],
      ['b.txt', false, 3, 1],
    ]);
    const three = await ws.env.listDirectory('.', 3);
    expect(three.map((e) => e.path)).toEqual(['src', 'src/inner', 'src/inner/x.ts', 'b.txt']);
    await expect(ws.env.listDirectory('b.txt')).rejects.toMatchObject({ code: 'agent.not_a_directory' });
  });

  it('greps with include, case and a result cap, skipping binaries and node_modules', async () => {
    mkdirSync(join(ws.dir, 'src'));
    mkdirSync(join(ws.dir, 'node_modules/dep'), { recursive: true });
    writeFileSync(join(ws.dir, 'src/a.ts'), 'const Foo = 1;\nfoo();\n');
    writeFileSync(join(ws.dir, 'src/b.js'), 'foo\n');
    writeFileSync(join(ws.dir, 'bin.dat'), Buffer.from([0x66, 0x6f, 0x6f, 0x00, 0x01]));
    writeFileSync(join(ws.dir, 'node_modules/dep/i.js'), 'foo\n');
    const all = await ws.env.grep('foo');
    expect(all.matches).toEqual([
      { path: 'src/a.ts', line: 2, text: 'foo();' },
      { path: 'src/b.js', line: 1, text: 'foo' },
    ]);
    const ts = await ws.env.grep('foo', 'src', { include: '*.ts', caseInsensitive: true });
    expect(ts.matches.map((m) => m.line)).toEqual([1, 2]);
    const capped = await ws.env.grep('foo', '.', { maxResults: 1 });
    expect(capped).toMatchObject({ limited: true, matches: [{ path: 'src/a.ts' }] });
  });

  it('globs newest first with absolute paths', async () => {
    mkdirSync(join(ws.dir, 'src/x'), { recursive: true });
    for (const [name, age] of [
      ['src/old.ts', 300],
      ['src/x/new.ts', 0],
      ['src/mid.ts', 100],
      ['src/no.js', 0],
    ] as const) {
      writeFileSync(join(ws.dir, name), name);
      const t = Date.now() / 1000 - age;
      utimesSync(join(ws.dir, name), t, t);
    }
    expect(await ws.env.glob('**/*.ts')).toEqual(
      ['src/x/new.ts', 'src/mid.ts', 'src/old.ts'].map((p) => join(ws.dir, p)),
    );
    expect(await ws.env.glob('*.ts', 'src')).toEqual(
      ['src/mid.ts', 'src/old.ts'].map((p) => join(ws.dir, p)),
    );
    expect(await ws.env.glob(join(ws.dir, 'src/*.ts'))).toEqual(
      ['src/mid.ts', 'src/old.ts'].map((p) => join(ws.dir, p)),
    );
    await expect(ws.env.glob('/etc/*.conf')).rejects.toMatchObject({ code: 'agent.path_outside_workdir' });
  });
});

describe('LocalExecutionEnvironment: commands', () => {
  const ws = useWorkspace({
    baseEnv: {
      PATH: process.env['PATH'],
      FOO_API_KEY: 'sk-fake',
      MY_SECRET: 's',
      GH_TOKEN: 't',
      DB_PASSWORD: 'p',
      SERVICE_CREDENTIALS: 'c',
      PLAIN: 'visible',
    },
  });

  it('runs in the working directory and returns stdout, stderr and the exit code', async () => {
    const result = await ws.env.execCommand('pwd; echo oops >&2; exit 3');
    expect(result).toMatchObject({ stdout: `${ws.dir}\n`, stderr: 'oops\n', exitCode: 3, timedOut: false });
  });

  it('never shows credentials to a command', async () => {
    const { stdout } = await ws.env.execCommand('env');
    expect(stdout).toContain('PLAIN=visible');
    for (const name of ['FOO_API_KEY', 'MY_SECRET', 'GH_TOKEN', 'DB_PASSWORD', 'SERVICE_CREDENTIALS']) {
      expect(stdout).not.toContain(`${name}=`);
    }
  });

  it('env_passthrough restores the named variables only', async () => {
    const env = new LocalExecutionEnvironment({
      workingDir: ws.dir,
      baseEnv: { PATH: process.env['PATH'], FOO_API_KEY: 'sk-fake', GH_TOKEN: 't' },
      envPassthrough: ['FOO_API_KEY'],
    });
    const { stdout } = await env.execCommand('echo "key=$FOO_API_KEY gh=$GH_TOKEN"');
    expect(stdout).toBe('key=sk-fake gh=\n');
  });

  it('streams output as it comes, and passes stdin when given', async () => {
    const chunks: string[] = [];
    const result = await ws.env.execCommand('cat; echo err >&2', {
      input: 'from stdin\n',
      onOutput: (chunk) => chunks.push(chunk),
    });
    expect(result.stdout).toBe('from stdin\n');
    expect(chunks.join('')).toContain('from stdin\n');
    expect(chunks.join('')).toContain('err\n');
  });

  it('a timeout kills the whole process group (SIGTERM, then SIGKILL for one that ignores it)', async () => {
    const started = Date.now();
    const result = await ws.env.execCommand(`trap '' TERM; sleep 30 & echo $!; wait`, { timeoutMs: 300 });
    const pid = Number(result.stdout.trim());
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).not.toBe(0);
    // Real time on purpose (a real process group): far below the 30 s the sleep would take.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await eventuallyGone(pid)).toBe(true);
  });

  it('abort kills a running sleep and leaves no process behind', async () => {
    const controller = new AbortController();
    let pid = 0;
    const running = ws.env.execCommand('sleep 30 & echo $!; wait', {
      signal: controller.signal,
      timeoutMs: 60_000,
      onOutput: (chunk) => {
        pid = Number(chunk.trim());
        controller.abort();
      },
    });
    const result = await running;
    expect(pid).toBeGreaterThan(0);
    expect(result.aborted).toBe(true);
    expect(await eventuallyGone(pid)).toBe(true);
  });

  it('background processes left when the shell exits are ended too', async () => {
    const result = await ws.env.execCommand('sleep 30 > /dev/null 2>&1 & echo $!');
    const pid = Number(result.stdout.trim());
    expect(result.exitCode).toBe(0);
    expect(await eventuallyGone(pid)).toBe(true);
  });

  it('cleanup() kills commands still running', async () => {
    let pid = 0;
    const running = ws.env.execCommand('sleep 30 & echo $!; wait', {
      timeoutMs: 60_000,
      onOutput: (chunk) => {
        pid = Number(chunk.trim());
        void ws.env.cleanup();
      },
    });
    await running;
    expect(await eventuallyGone(pid)).toBe(true);
    expect(alive(process.pid)).toBe(true);
  });

  it('keeps only a bounded head and tail of huge output, counting what it dropped', async () => {
    const env = new LocalExecutionEnvironment({ workingDir: ws.dir, outputCapChars: 1000 });
    let streamed = 0;
    const result = await env.execCommand(
      `printf 'HEAD'; head -c 200000 /dev/zero | tr '\\0' x; printf 'TAIL'`,
      {
        onOutput: (chunk) => {
          streamed += chunk.length;
        },
      },
    );
    expect(streamed).toBe(200_008);
    expect(result.stdout.startsWith('HEAD')).toBe(true);
    expect(result.stdout.endsWith('TAIL')).toBe(true);
    expect(result.omittedChars).toBe(200_008 - 1000);
    expect(result.stdout).toContain(`[... ${200_008 - 1000} characters omitted`);
  });
});

describe('LocalExecutionEnvironment: a working directory reached through a symlink', () => {
  let base: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'attractor-alias-')));
    mkdirSync(join(base, 'real'));
    symlinkSync(join(base, 'real'), join(base, 'alias'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('accepts absolute paths written with the symlinked name, still refuses the parent', async () => {
    const env = new LocalExecutionEnvironment({ workingDir: join(base, 'alias') });
    expect(env.workingDirectory).toBe(join(base, 'real'));
    await env.writeFile(join(base, 'alias', 'f.txt'), 'via alias');
    expect(readFileSync(join(base, 'real', 'f.txt'), 'utf8')).toBe('via alias');
    await expect(env.writeFile(join(base, 'alias', '..', 'x.txt'), 'x')).rejects.toMatchObject({
      code: 'agent.path_outside_workdir',
    });
  });
});
