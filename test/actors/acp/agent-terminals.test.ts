import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AgentTerminals } from '../../../src/actors/acp/agent-terminals.js';
import { processAlive as alive } from '../../helpers/process-alive.js';

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-terminals-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const terminals = () =>
  new AgentTerminals({ roots: [dir], env: { PATH: process.env.PATH ?? '', KEEP: 'k' }, killGraceMs: 200 });

describe('AgentTerminals', () => {
  it('runs a command line in the working directory with the given env plus the request env', async () => {
    const t = terminals();
    const id = t.create({
      sessionId: 's',
      command: 'pwd; echo "$KEEP $EXTRA $HOME"',
      env: [{ name: 'EXTRA', value: 'e' }],
    });
    expect(await t.waitForExit(id)).toEqual({ exitCode: 0, signal: null });
    expect(t.output(id)).toEqual({
      output: `${dir}\nk e \n`,
      truncated: false,
      exitStatus: { exitCode: 0, signal: null },
    });
  });

  it('runs command + args without a shell, and reports a non-zero exit', async () => {
    const t = terminals();
    const id = t.create({
      sessionId: 's',
      command: process.execPath,
      args: ['-e', 'process.stderr.write("e"); process.exit(4)'],
    });
    expect((await t.waitForExit(id)).exitCode).toBe(4);
    expect(t.output(id).output).toBe('e');
  });

  it('keeps the last outputByteLimit bytes and says it truncated', async () => {
    const t = terminals();
    const id = t.create({ sessionId: 's', command: 'printf "0123456789abcdef"', outputByteLimit: 6 });
    await t.waitForExit(id);
    expect(t.output(id)).toMatchObject({ output: 'abcdef', truncated: true });
  });

  it('kill stops the whole process group (a background child too); release forgets the terminal', async () => {
    const t = terminals();
    const id = t.create({ sessionId: 's', command: 'sleep 30 & echo $!; wait' });
    let pid = 0;
    for (let i = 0; i < 100 && pid === 0; i++) {
      pid = Number(t.output(id).output.trim()) || 0;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(alive(pid)).toBe(true);
    await t.kill(id);
    expect((await t.waitForExit(id)).signal).toBe('SIGTERM');
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 5_000 });
    await t.release(id);
    expect(() => t.output(id)).toThrow(/Resource not found/);
  });

  it('refuses a cwd outside the working directory', () => {
    expect(() => terminals().create({ sessionId: 's', command: 'true', cwd: '/etc' })).toThrow(
      /outside the working directory/,
    );
  });
});
