import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalExecutionEnvironment } from '../../src/agent/environment/local-execution-environment.js';
import { nodeSandbox, type SandboxSettings } from '../../src/shared/sandbox/sandbox-settings.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The agent's file tools reach what its shell reaches: the tree, never what the sandbox hides or a link out. */
describe("the agent's file tools stay inside the sandbox's walls", () => {
  const root = realpathSync(tempDir());
  const work = join(root, 'work');
  const outside = join(root, 'outside');
  mkdirSync(join(work, '.attractor-runs/g/other'), { recursive: true });
  mkdirSync(join(work, '.attractor-runs/g/mine'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE');
  writeFileSync(join(work, '.attractor-runs/g/other/answer.json'), '{}');
  symlinkSync(join(outside, 'secret.txt'), join(work, 'link-out'));
  symlinkSync(outside, join(work, 'dir-out'));
  const settings: SandboxSettings = {
    mode: 'on',
    bwrap: '/usr/bin/bwrap',
    allowOff: true,
    hidden: [join(work, '.attractor-runs')],
    writable: [join(work, '.attractor-runs/g/mine')],
  };
  const spec = nodeSandbox(settings, {}, {}, [work]);
  const env = new LocalExecutionEnvironment({ workingDir: work, ...(spec ? { sandbox: spec } : {}) });

  it.each([
    ['read', () => env.readFile(join(outside, 'secret.txt'))],
    ['read through a symlink', () => env.readFile('link-out')],
    ['write through a symlinked folder', () => env.writeFile('dir-out/x.txt', 'x')],
    ['write ../', () => env.writeFile('../outside/y.txt', 'y')],
    ["read another run's answer file", () => env.readFile('.attractor-runs/g/other/answer.json')],
    [
      "write another run's answer file",
      () => env.writeFile('.attractor-runs/g/other/answer.json', '{"a":1}'),
    ],
    ["list another run's folder", () => env.listDirectory('.attractor-runs/g/other')],
  ])('%s is refused', async (_name, attempt) => {
    await expect(attempt()).rejects.toThrow(/outside the working directory|outside/);
  });

  it("the run's own folder and the tree stay reachable; a hard link made outside is the host's doing", async () => {
    await env.writeFile('.attractor-runs/g/mine/status.json', '{}');
    await env.writeFile('src/a.txt', 'a');
    expect(await env.readFile('src/a.txt')).toBe('a');
    // A hard link is the same file, not a path out: only someone outside the sandbox can make one to a
    // file the sandbox cannot see (a command inside cannot: it sees no such file).
    linkSync(join(outside, 'secret.txt'), join(work, 'hard'));
    expect(await env.readFile('hard')).toBe('OUTSIDE');
  });
});
