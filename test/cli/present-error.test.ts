import { describe, expect, it } from 'vitest';
import { presentError } from '../../src/cli/present-error.js';
import { AttractorError } from '../../src/shared/errors.js';
import { STACK_LINE } from './run-cli.js';

function capture(error: unknown, verbose: boolean): { code: number; stderr: string } {
  let stderr = '';
  const code = presentError(error, { stderr: (t) => (stderr += t) }, verbose);
  return { code, stderr };
}

describe('presentError', () => {
  it('an AttractorError is one line with its location, exit 1', () => {
    const error = new AttractorError('DOT_SYNTAX', 'expected "}"\nbut found end of file', {
      location: { file: 'p.dot', line: 3, column: 7 },
    });
    expect(capture(error, false)).toEqual({
      code: 1,
      stderr: 'attractor: p.dot:3:7: expected "}" but found end of file\n',
    });
  });

  it('any other error is an internal error with a --verbose hint, exit 70, no stack', () => {
    const { code, stderr } = capture(new TypeError('x is undefined'), false);
    expect(code).toBe(70);
    expect(stderr).toBe(
      'attractor: internal error: x is undefined\nattractor: this is a bug in attractor; re-run with --verbose to see the stack trace\n',
    );
    expect(stderr).not.toMatch(STACK_LINE);
  });

  it('--verbose shows the stack of an internal error', () => {
    const { code, stderr } = capture(new TypeError('x is undefined'), true);
    expect(code).toBe(70);
    expect(stderr).toMatch(/^attractor: internal error: x is undefined\n/);
    expect(stderr).toMatch(STACK_LINE);
  });

  // A file where --logs-dir wants a directory, a full disk, a read-only folder: the environment, not
  // a bug. They used to print "internal error ... this is a bug" and exit 70.
  it('a file-system error from the environment is one line naming the path, exit 1, no bug hint', () => {
    const error = Object.assign(new Error("ENOTDIR: not a directory, mkdir '/tmp/x/runs/a'"), {
      code: 'ENOTDIR',
      errno: -20,
      syscall: 'mkdir',
      path: '/tmp/x/runs/a',
    });
    expect(capture(error, false)).toEqual({
      code: 1,
      stderr: 'attractor: cannot mkdir /tmp/x/runs/a: not a directory (ENOTDIR)\n',
    });
    expect(capture(error, true).stderr).toMatch(STACK_LINE);
  });

  it('a thrown non-Error value is still one line', () => {
    expect(capture('boom', false).stderr.split('\n')[0]).toBe('attractor: internal error: boom');
  });
});
