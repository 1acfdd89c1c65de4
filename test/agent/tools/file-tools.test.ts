import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool } from '../../../src/agent/tools/edit-file-tool.js';
import { readFileTool } from '../../../src/agent/tools/read-file-tool.js';
import { READ_MANY_FILES_LIMIT, readManyFilesTool } from '../../../src/agent/tools/read-many-files-tool.js';
import { runAgentTool } from '../../../src/agent/tools/run-agent-tool.js';
import { writeFileTool } from '../../../src/agent/tools/write-file-tool.js';
import { headTailMarker } from '../../../src/agent/truncation/truncate-output.js';
import { useWorkspace } from './tool-fixtures.js';

describe('read_file', () => {
  const ws = useWorkspace();
  const read = (args: Record<string, unknown>) => runAgentTool(readFileTool, args, ws.ctx());

  it('numbers lines like cat -n', async () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'one\ntwo\nthree\n');
    expect(await read({ path: 'a.txt' })).toMatchObject({
      output: '     1\tone\n     2\ttwo\n     3\tthree',
      isError: false,
    });
  });

  it('reads a window with offset (1-based) and limit, saying how to read on', async () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'l1\nl2\nl3\nl4\nl5');
    const { output } = await read({ path: 'a.txt', offset: 2, limit: 2 });
    expect(output).toBe('     2\tl2\n     3\tl3\n[Showing lines 2-3 of 5. Use offset=4 to read more.]');
    expect((await read({ path: 'a.txt', offset: 4 })).output).toBe('     4\tl4\n     5\tl5');
  });

  it.each([
    [{ path: 'missing.txt' }, 'Error: file not found: missing.txt'],
    [{ path: '../x' }, /^Error: path is outside the working directory/],
    [{ path: 'a.txt', offset: 9 }, 'Error: offset 9 is past the end of a.txt (1 lines)'],
    [{ path: 'a.txt', offset: 0 }, /^Invalid arguments for tool: read_file: offset: /],
    [{}, /^Invalid arguments for tool: read_file: file_path: /],
  ])('%j → %s', async (args, expected) => {
    writeFileSync(join(ws.dir, 'a.txt'), 'only');
    const result = await read(args);
    expect(result.isError).toBe(true);
    if (typeof expected === 'string') expect(result.output).toBe(expected);
    else expect(result.output).toMatch(expected);
  });

  it('a 100 000-character file: the model gets the marker, TOOL_CALL_END the whole', async () => {
    writeFileSync(join(ws.dir, 'big.txt'), 'x'.repeat(100_000));
    const result = await read({ path: 'big.txt' });
    expect(result.output).toBe(`     1\t${'x'.repeat(100_000)}`);
    expect(result.truncated).toContain(headTailMarker(50_007));
  });
});

describe('write_file', () => {
  const ws = useWorkspace();

  it('creates parents and overwrites', async () => {
    const first = await runAgentTool(writeFileTool, { path: 'a/b/c.txt', content: 'v1' }, ws.ctx());
    expect(first).toMatchObject({ output: 'Successfully wrote to a/b/c.txt', isError: false });
    await runAgentTool(writeFileTool, { path: 'a/b/c.txt', content: 'v2' }, ws.ctx());
    expect(readFileSync(join(ws.dir, 'a/b/c.txt'), 'utf8')).toBe('v2');
  });

  it('refuses paths outside', async () => {
    const result = await runAgentTool(writeFileTool, { path: '/tmp/escape.txt', content: 'x' }, ws.ctx());
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Error: path is outside the working directory/);
  });
});

describe('edit_file', () => {
  const ws = useWorkspace();
  const edit = (args: Record<string, unknown>) => runAgentTool(editFileTool, args, ws.ctx());
  const content = () => readFileSync(join(ws.dir, 'f.ts'), 'utf8');

  it('replaces a unique match', async () => {
    writeFileSync(join(ws.dir, 'f.ts'), 'const a = 1;\nconst b = 2;\n');
    expect(await edit({ path: 'f.ts', old_string: 'b = 2', new_string: 'b = 3' })).toMatchObject({
      output: 'Successfully edited f.ts',
      isError: false,
    });
    expect(content()).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('replace_all replaces every occurrence and says how many; $ patterns stay literal', async () => {
    writeFileSync(join(ws.dir, 'f.ts'), 'x x x');
    expect((await edit({ path: 'f.ts', old_string: 'x', new_string: "$&'", replace_all: true })).output).toBe(
      'Successfully edited f.ts (3 replacements)',
    );
    expect(content()).toBe("$&' $&' $&'");
  });

  it.each([
    [
      'trailing whitespace',
      'if (a) {  \n  go();\n}\n',
      'if (a) {\n  go();\n}',
      'if (a) {\n  stop();\n}',
      'if (a) {\n  stop();\n}\n',
    ],
    [
      'a different indentation level',
      'class A {\n    run() {\n        go();\n    }\n}\n',
      'run() {\n    go();\n}\n',
      'run() {\n    stop();\n}\n',
      'class A {\n    run() {\n        stop();\n    }\n}\n',
    ],
    ['typographic quotes', 'say("hi");\n', 'say(\u201Chi\u201D);', 'say("yo");', 'say("yo");\n'],
  ])(
    'falls back to whole-line matching tolerant of %s',
    async (_label, before, oldString, newString, after) => {
      writeFileSync(join(ws.dir, 'f.ts'), before);
      expect(await edit({ path: 'f.ts', old_string: oldString, new_string: newString })).toMatchObject({
        output: 'Successfully edited f.ts',
        isError: false,
      });
      expect(content()).toBe(after);
    },
  );

  it('a fuzzy match found twice is ambiguous', async () => {
    writeFileSync(join(ws.dir, 'f.ts'), '  x();\n    x();\n');
    expect(await edit({ path: 'f.ts', old_string: '\tx();', new_string: 'y();' })).toMatchObject({
      output: 'Error: old_string found 2 times in f.ts. Provide more context to make it unique.',
      isError: true,
    });
  });

  it.each([
    [{ path: 'none.ts', old_string: 'a', new_string: 'b' }, 'Error: file not found: none.ts'],
    [{ path: 'f.ts', old_string: 'zzz', new_string: 'b' }, 'Error: old_string not found in f.ts'],
    [
      { path: 'f.ts', old_string: 'dup', new_string: 'b' },
      'Error: old_string found 2 times in f.ts. Provide more context to make it unique.',
    ],
  ])('%j → %s, file unchanged', async (args, expected) => {
    mkdirSync(join(ws.dir, 'd'), { recursive: true });
    writeFileSync(join(ws.dir, 'f.ts'), 'dup dup');
    expect(await edit(args)).toMatchObject({ output: expected, isError: true });
    expect(content()).toBe('dup dup');
  });
});

describe('read_many_files', () => {
  const ws = useWorkspace();
  const read = (paths: unknown) => runAgentTool(readManyFilesTool, { paths }, ws.ctx());

  it('reads files and glob matches in the order asked, each numbered under its header', async () => {
    mkdirSync(join(ws.dir, 'src'));
    writeFileSync(join(ws.dir, 'src', 'b.ts'), 'b1\nb2\n');
    writeFileSync(join(ws.dir, 'src', 'a.ts'), 'a1\n');
    writeFileSync(join(ws.dir, 'README.md'), 'hello');
    const result = await read(['README.md', 'src/*.ts', 'src/a.ts']);
    expect(result).toMatchObject({ isError: false });
    expect(result.output).toBe(
      [
        '--- README.md ---\n     1\thello',
        '--- src/a.ts ---\n     1\ta1',
        '--- src/b.ts ---\n     1\tb1\n     2\tb2',
      ].join('\n\n'),
    );
  });

  it('reports a missing file or an empty pattern in place and still returns the others', async () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'a');
    const result = await read(['nope.txt', 'a.txt', '*.none']);
    expect(result.isError).toBe(false);
    expect(result.output).toBe(
      '--- nope.txt ---\nError: file not found: nope.txt\n\n--- a.txt ---\n     1\ta\n\n--- *.none ---\nNo files matched.',
    );
  });

  it.each([
    [['missing.txt'], /^--- missing.txt ---\nError: file not found/],
    [['../outside.txt'], /Error: path is outside the working directory/],
    [[], /^Invalid arguments for tool: read_many_files: paths: /],
    ['a.txt', /^Invalid arguments for tool: read_many_files: paths: /],
  ])('%j is an error result (%s)', async (paths, expected) => {
    const result = await read(paths);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(expected);
  });

  it(`refuses more than ${READ_MANY_FILES_LIMIT} files, saying how to narrow`, async () => {
    for (let i = 0; i <= READ_MANY_FILES_LIMIT; i++) writeFileSync(join(ws.dir, `f${i}.txt`), `${i}`);
    const result = await read(['*.txt']);
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toContain(`match ${READ_MANY_FILES_LIMIT + 1} files`);
  });
});
