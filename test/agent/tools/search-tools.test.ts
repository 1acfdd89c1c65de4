import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globTool } from '../../../src/agent/tools/glob-tool.js';
import { grepTool } from '../../../src/agent/tools/grep-tool.js';
import { listDirTool } from '../../../src/agent/tools/list-dir-tool.js';
import { runAgentTool } from '../../../src/agent/tools/run-agent-tool.js';
import { useWorkspace } from './tool-fixtures.js';

describe('grep, glob, list_dir', () => {
  const ws = useWorkspace();
  const setup = () => {
    mkdirSync(join(ws.dir, 'src/util'), { recursive: true });
    writeFileSync(join(ws.dir, 'src/main.ts'), 'import x from "./util";\nTODO: fix\n');
    writeFileSync(join(ws.dir, 'src/util/index.ts'), 'export const todo = 1;\n');
    writeFileSync(join(ws.dir, 'README.md'), '# todo list\n');
    const now = Date.now() / 1000;
    utimesSync(join(ws.dir, 'src/main.ts'), now - 100, now - 100);
  };

  it('grep: path:line: text, include filter, case-insensitive', async () => {
    setup();
    expect((await runAgentTool(grepTool, { pattern: 'TODO' }, ws.ctx())).output).toBe(
      'src/main.ts:2: TODO: fix',
    );
    const all = await runAgentTool(
      grepTool,
      { pattern: 'todo', case_insensitive: true, include: '*.ts' },
      ws.ctx(),
    );
    expect(all.output).toBe('src/main.ts:2: TODO: fix\nsrc/util/index.ts:1: export const todo = 1;');
  });

  it('grep: no matches, result cap, invalid regex, missing path', async () => {
    setup();
    expect((await runAgentTool(grepTool, { pattern: 'nothing-here' }, ws.ctx())).output).toBe(
      'No matches found.',
    );
    const capped = await runAgentTool(grepTool, { pattern: 'o', max_results: 1 }, ws.ctx());
    expect(capped.output).toBe('README.md:1: # todo list\n[Results limited to 1 matches]');
    expect(await runAgentTool(grepTool, { pattern: '(' }, ws.ctx())).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^Error: invalid regular expression: /),
    });
    expect(await runAgentTool(grepTool, { pattern: 'x', path: 'nope' }, ws.ctx())).toMatchObject({
      isError: true,
      output: 'Error: file not found: nope',
    });
  });

  it('glob: absolute paths newest first, or the no-match text', async () => {
    setup();
    const result = await runAgentTool(globTool, { pattern: '**/*.ts' }, ws.ctx());
    expect(result.output).toBe([join(ws.dir, 'src/util/index.ts'), join(ws.dir, 'src/main.ts')].join('\n'));
    expect((await runAgentTool(globTool, { pattern: '*.py' }, ws.ctx())).output).toBe('No files matched.');
    expect((await runAgentTool(globTool, { pattern: '*.{md,txt}' }, ws.ctx())).output).toBe(
      join(ws.dir, 'README.md'),
    );
  });

  it('list_dir: indented, / for directories, sizes for files, empty directory text', async () => {
    setup();
    const result = await runAgentTool(listDirTool, { path: '.', depth: 3 }, ws.ctx());
    expect(result.output).toBe(
      ['src/', '  util/', '    index.ts (23 bytes)', '  main.ts (34 bytes)', 'README.md (12 bytes)'].join(
        '\n',
      ),
    );
    mkdirSync(join(ws.dir, 'empty'));
    expect((await runAgentTool(listDirTool, { path: 'empty' }, ws.ctx())).output).toBe(
      'empty: (empty directory)',
    );
    expect(await runAgentTool(listDirTool, { path: 'README.md' }, ws.ctx())).toMatchObject({
      isError: true,
      output: 'Error: not a directory: README.md',
    });
  });
});
