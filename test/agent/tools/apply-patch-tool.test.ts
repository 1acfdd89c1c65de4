import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPatchTool } from '../../../src/agent/tools/apply-patch-tool.js';
import { runAgentTool } from '../../../src/agent/tools/run-agent-tool.js';
import { useWorkspace } from './tool-fixtures.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('apply_patch', () => {
  const ws = useWorkspace();
  const apply = (text: string) => runAgentTool(applyPatchTool, { patch: text }, ws.ctx());
  const read = (p: string) => readFileSync(join(ws.dir, p), 'utf8');
  const write = (p: string, content: string) => writeFileSync(join(ws.dir, p), content);

  it('adds, deletes, updates and moves files in one patch', async () => {
    write('gone.txt', 'bye\n');
    write('app.py', 'def main():\n    print("hi")\n    return 0\n');
    write('old.py', 'a\nb\nc\n');
    const result = await apply(
      patch(
        '*** Add File: pkg/new.py',
        '+x = 1',
        '+y = 2',
        '*** Delete File: gone.txt',
        '*** Update File: app.py',
        '@@ def main():',
        '-    print("hi")',
        '+    print("hello")',
        '     return 0',
        '*** Update File: old.py',
        '*** Move to: moved/new_name.py',
        '@@',
        ' a',
        '-b',
        '+B',
        ' c',
      ),
    );
    expect(result).toMatchObject({ isError: false });
    expect(result.output).toBe(
      'Successfully applied patch:\nA pkg/new.py\nD gone.txt\nM app.py\nM old.py -> moved/new_name.py',
    );
    expect(read('pkg/new.py')).toBe('x = 1\ny = 2\n');
    expect(existsSync(join(ws.dir, 'gone.txt'))).toBe(false);
    expect(read('app.py')).toBe('def main():\n    print("hello")\n    return 0\n');
    expect(existsSync(join(ws.dir, 'old.py'))).toBe(false);
    expect(read('moved/new_name.py')).toBe('a\nB\nc\n');
  });

  it('applies several hunks of one file in order, using the @@ hint to pick the right place', async () => {
    write(
      'f.ts',
      ['function a() {', '  return 1;', '}', 'function b() {', '  return 1;', '}', ''].join('\n'),
    );
    const result = await apply(
      patch(
        '*** Update File: f.ts',
        '@@ function b() {',
        '-  return 1;',
        '+  return 2;',
        '@@',
        ' }',
        '+// end',
      ),
    );
    expect(result.isError).toBe(false);
    expect(read('f.ts')).toBe(
      ['function a() {', '  return 1;', '}', 'function b() {', '  return 2;', '}', '// end', ''].join('\n'),
    );
  });

  it.each([
    [
      're-indented context',
      '    if x:\n        y()\n',
      ['@@', ' if x:', '-    y()', '+    z()'],
      '    if x:\n        z()\n',
    ],
    ['trailing spaces in the file', 'a   \nb\n', [' a', '-b', '+c'], 'a   \nc\n'],
    ['curly quotes from the model', 'say("hi")\n', ['-say(\u201Chi\u201D)', '+say("yo")'], 'say("yo")\n'],
    ['tabs vs spaces', '\tcall()\nend\n', ['@@', '     call()', '-end', '+done'], '\tcall()\ndone\n'],
  ])('tolerates whitespace drift: %s', async (_label, before, hunk, after) => {
    write('w.py', before);
    const result = await apply(patch('*** Update File: w.py', ...hunk));
    expect(result.output).toMatch(/^Successfully applied patch/);
    expect(read('w.py')).toBe(after);
  });

  it('keeps CRLF line endings and a missing final newline', async () => {
    write('crlf.txt', 'one\r\ntwo\r\n');
    write('nonl.txt', 'one\ntwo');
    await apply(patch('*** Update File: crlf.txt', '-two', '+2', '*** Update File: nonl.txt', '-two', '+2'));
    expect(read('crlf.txt')).toBe('one\r\n2\r\n');
    expect(read('nonl.txt')).toBe('one\n2');
  });

  it('is atomic: one failing hunk and no file changes, not even the earlier ones', async () => {
    write('a.txt', 'keep\n');
    write('b.txt', 'x\ny\n');
    const result = await apply(
      patch(
        '*** Add File: c.txt',
        '+new',
        '*** Update File: a.txt',
        '-keep',
        '+changed',
        '*** Delete File: b.txt',
        '*** Update File: b.txt',
        '-not there',
        '+z',
      ),
    );
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Error: file not found: b.txt\nNo file was changed\.$/);
    expect(read('a.txt')).toBe('keep\n');
    expect(read('b.txt')).toBe('x\ny\n');
    expect(existsSync(join(ws.dir, 'c.txt'))).toBe(false);
  });

  it.each([
    [
      'a hunk that does not match',
      patch('*** Update File: a.txt', '-absent', '+x'),
      /^Error: hunk 1 of a\.txt does not match the file; these lines were not found:\nabsent\nNo file was changed\.$/,
    ],
    [
      'an update of a missing file',
      patch('*** Update File: nope.txt', '-a', '+b'),
      /^Error: file not found: nope\.txt/,
    ],
    ['a delete of a missing file', patch('*** Delete File: nope.txt'), /^Error: file not found: nope\.txt/],
    [
      'an add over an existing file',
      patch('*** Add File: a.txt', '+x'),
      /^Error: cannot add a\.txt: the file already exists/,
    ],
    [
      'no envelope',
      '*** Update File: a.txt\n-a\n+b',
      /^Error: invalid patch: the patch must start with "\*\*\* Begin Patch"/,
    ],
    [
      'no end marker',
      '*** Begin Patch\n*** Delete File: a.txt',
      /^Error: invalid patch: the patch must end with "\*\*\* End Patch"/,
    ],
    [
      'an unknown operation',
      patch('*** Rename File: a.txt'),
      /^Error: invalid patch: line 2: expected "\*\*\* Add File: "/,
    ],
    [
      'a path outside',
      patch('*** Add File: ../escape.txt', '+x'),
      /^Error: path is outside the working directory/,
    ],
  ])('refuses %s and changes nothing', async (_label, text, expected) => {
    write('a.txt', 'keep\n');
    const result = await apply(text);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(expected);
    expect(read('a.txt')).toBe('keep\n');
    expect(existsSync(join(ws.dir, '..', 'escape.txt'))).toBe(false);
  });
});
