import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, STACK_LINE } from './run-cli.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('attractor main', () => {
  it.each([['--version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const result = await runCli([flag]);
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help lists the commands, examples and exit codes on stdout', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('validate');
    expect(result.stdout).toContain('compile');
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toMatch(/Exit codes:[\s\S]*\b2\s+bad command line/);
    expect(result.stderr).toBe('');
  });

  it.each([
    ['validate', ['--strict', '--json', 'attractor validate examples/tour.dot']],
    ['compile', ['--format', 'xstate', 'svg', 'attractor compile']],
    [
      'run',
      ['--max-cost', 'OPENAI_COMPATIBLE_API_KEY only if it wants', 'max_tokens=N', 'auto_compact=true'],
    ],
  ])('%s --help documents its flags with examples', async (command, expected) => {
    for (const argv of [
      [command, '--help'],
      ['help', command],
    ]) {
      const result = await runCli(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Examples:');
      for (const text of expected) expect(result.stdout).toContain(text);
    }
  });

  it.each([
    ['an unknown global flag', ['--frobnicate'], /unknown option '--frobnicate'/, "'attractor --help'"],
    [
      'an unknown command flag',
      ['validate', 'x.dot', '--no-such-flag'],
      /unknown option '--no-such-flag'/,
      "'attractor validate --help'",
    ],
    ['a misspelt flag', ['validate', 'x.dot', '--jsn'], /unknown option '--jsn'.*--json/, 'validate --help'],
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/, "'attractor --help'"],
    ['a missing file argument', ['validate'], /missing required argument 'file'/, 'validate --help'],
    ['an extra argument', ['validate', 'a.dot', 'b.dot'], /too many arguments/, 'validate --help'],
    [
      'a bad --format',
      ['compile', 'a.dot', '--format', 'png'],
      /'png' is invalid.*json, xstate, svg/,
      'compile --help',
    ],
  ])('%s is a usage error: one message, a hint, exit 2', async (_name, argv, message, hint) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^attractor: /);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toContain(hint);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('no command prints the help on stderr and exits 2', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: attractor');
    expect(result.stdout).toBe('');
  });

  it('can run twice in one process (no state kept between calls)', async () => {
    expect((await runCli(['--version'])).code).toBe(0);
    expect((await runCli(['--frobnicate'])).code).toBe(2);
    expect((await runCli(['--version'])).code).toBe(0);
  });
});
