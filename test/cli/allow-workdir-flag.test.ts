import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli, STACK_LINE } from './run-cli.js';

// Nothing listens on port 1: every case is refused before the store is reached.
const STORE = 'postgres://nobody@127.0.0.1:1/none';

describe('--allow-workdir', () => {
  it.each([
    ['worker', ['worker', '--store', STORE]],
    ['serve', ['serve', '--port', '0']],
  ])('%s refuses a folder that does not exist, naming the flag, before it starts', async (_name, argv) => {
    const cwd = tempDir();
    const result = await runCli([...argv, '--allow-workdir', 'checkouts'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--allow-workdir');
    expect(result.stderr).toContain(path.join(cwd, 'checkouts'));
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it("is a worker's flag when runs execute on workers: serve --store refuses it", async () => {
    const result = await runCli(['serve', '--port', '0', '--store', STORE, '--allow-workdir', tempDir()]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('give --allow-workdir to `attractor worker`');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it.each(['worker', 'serve'])('is described in %s --help', async (command) => {
    const result = await runCli([command, '--help']);
    expect(result.stdout).toContain('--allow-workdir <dir...>');
    expect(result.stdout).toContain('working_dir');
  });
});
