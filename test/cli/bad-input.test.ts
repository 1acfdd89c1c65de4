import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, STACK_LINE } from './run-cli.js';
import { tempPipelines } from './temp-pipelines.js';

const tmp = tempPipelines();
afterAll(() => tmp.cleanup());

const missing = `${tmp.dir}/does-not-exist.dot`;
const empty = tmp.write('empty.dot', '');
const blank = tmp.write('blank.dot', '\n   \n\t\n');
const unbalanced = tmp.write(
  'unbalanced.dot',
  'digraph p {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n',
);
const binary = tmp.write(
  'binary.dot',
  Buffer.from([0x64, 0x69, 0x0a, 0x00, 0xff, 0xfe, 0x01, 0x02, 0x89, 0x50]),
);
const invalidUtf8 = tmp.write('latin1.dot', Buffer.from('digraph p {\n  a [label="caf\xe9"]\n}\n', 'latin1'));
const undirected = tmp.write('undirected.dot', 'graph p {\n  start [shape=Mdiamond]\n  start -- exit\n}\n');
const garbage = tmp.write('garbage.dot', 'this is not a graph at all\n');

/** [name, file, does the message carry file:line:col?, text the message must contain] */
const CASES: Array<[string, string, boolean, RegExp]> = [
  ['a missing file', missing, false, /does-not-exist\.dot: no such file/],
  ['a directory', tmp.dir, false, /is a directory/],
  // `attractor validate ""` (an unset shell variable) used to read the working directory.
  ['an empty file name', '', false, /no pipeline file given/],
  // A device that never ends used to be read until memory ran out.
  ['a device that never ends', '/dev/zero', false, /larger than 10 MB/],
  ['an empty file', empty, true, /empty/],
  ['a whitespace-only file', blank, true, /empty/],
  ['unbalanced braces', unbalanced, true, /./],
  ['binary garbage', binary, true, /binary/],
  ['text that is not UTF-8', invalidUtf8, true, /binary|UTF-8/],
  ['an undirected graph', undirected, true, /digraph|undirected|directed/i],
  ['text that is not DOT', garbage, true, /./],
];

describe('bad input: one clear message, no stack trace', () => {
  it.each(CASES)('%s', async (_name, file, located, message) => {
    for (const command of ['validate', 'compile']) {
      const result = await runCli([command, file]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toMatch(STACK_LINE);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^attractor: /);
      expect(lines[0]).toMatch(message);
      expect(lines[0]).not.toMatch(/internal error/);
      if (located) expect(lines[0]).toContain(`${file}:`);
      if (located) expect(lines[0]).toMatch(/:\d+:\d+: /);
    }
  });

  it.each(CASES)('%s, with --json: one error diagnostic on stdout', async (_name, file, located) => {
    const result = await runCli(['validate', file, '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as {
      valid: boolean;
      diagnostics: Array<Record<string, unknown>>;
    };
    expect(report.valid).toBe(false);
    expect(report.diagnostics).toHaveLength(1);
    expect(report.diagnostics[0]).toMatchObject({ severity: 'error' });
    expect(report.diagnostics[0]?.['rule']).toMatch(/^[a-z_]+$/);
    if (located) expect(report.diagnostics[0]?.['loc']).toMatchObject({ line: expect.any(Number) });
  });

  it('--verbose adds the stack trace', async () => {
    const result = await runCli(['validate', unbalanced, '--verbose']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^attractor: /);
    expect(result.stderr).toMatch(STACK_LINE);
  });
});

describe('bad run directories: one clear line, exit 1, not an internal error', () => {
  const pipeline = tmp.write(
    'ok.dot',
    'digraph ok {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n}\n',
  );
  const aFile = tmp.write('not-a-dir', 'x');

  it.each([
    ['--logs-dir', /not a directory/],
    ['--checkpoint-dir', /already exists|not a directory/],
  ])('%s naming a file', async (flag, message) => {
    const result = await runCli(['run', pipeline, '--dry-run', flag, aFile], { cwd: tmp.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.stderr).not.toMatch(/internal error|bug/);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^attractor: cannot \w+ .*not-a-dir/);
    expect(lines[0]).toMatch(message);
  });
});

describe('a --logs-dir holding the user’s own files a run would write over', () => {
  it('is refused in one line before anything is written, and the file is kept', async () => {
    const dir = mkdtempSync(path.join(tmp.dir, 'project-'));
    writeFileSync(path.join(dir, 'pipeline.dot'), 'digraph mine {}\n');
    writeFileSync(
      path.join(dir, 'other.dot'),
      'digraph other {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  start -> exit\n}\n',
    );
    const result = await runCli(['run', 'other.dot', '--dry-run', '--logs-dir', '.'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'attractor: . holds pipeline.dot, which a run would write over: give an empty or new directory for a new run.',
    ]);
    expect(readFileSync(path.join(dir, 'pipeline.dot'), 'utf8')).toBe('digraph mine {}\n');
    expect(readdirSync(dir).sort()).toEqual(['other.dot', 'pipeline.dot']);
  });
});

describe('resume of something that is not a run: says so, whatever the flags', () => {
  // Without --dry-run the missing LLM backend used to be reported instead of the missing checkpoint.
  it.each([
    ['a directory without checkpoint.json', () => tmp.dir, /no checkpoint\.json/],
    ['an empty argument', () => '', /nothing to resume/],
  ])('%s', async (_name, from, message) => {
    const result = await runCli(['resume', from()], { cwd: tmp.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(STACK_LINE);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).not.toMatch(/backend/);
  });
});
