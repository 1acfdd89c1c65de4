import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, PROFILE_PROVIDERS } from '../../../src/agent/profiles/get-profile.js';
import type { AgentTool } from '../../../src/agent/tools/define-tool.js';
import { editFileTool } from '../../../src/agent/tools/edit-file-tool.js';
import { grepTool } from '../../../src/agent/tools/grep-tool.js';
import { readFileTool } from '../../../src/agent/tools/read-file-tool.js';
import { runAgentTool } from '../../../src/agent/tools/run-agent-tool.js';
import { writeFileTool } from '../../../src/agent/tools/write-file-tool.js';
import { useWorkspace } from './tool-fixtures.js';

/**
 * The file tools take the parameter names of the spec (and of the tools models are trained on): `file_path`,
 * `glob_filter`. Their earlier names, `path` and `include`, stay accepted for callers and cassettes that use
 * them, but the model is shown only the spec's.
 */
const RENAMED: Array<{ tool: AgentTool; spec: string; old: string; args: Record<string, unknown> }> = [
  { tool: readFileTool, spec: 'file_path', old: 'path', args: {} },
  { tool: writeFileTool, spec: 'file_path', old: 'path', args: { content: 'written\n' } },
  { tool: editFileTool, spec: 'file_path', old: 'path', args: { old_string: 'one', new_string: 'two' } },
  { tool: grepTool, spec: 'glob_filter', old: 'include', args: { pattern: 'one' } },
];
const VALUE: Record<string, string> = {
  file_path: 'a.txt',
  path: 'a.txt',
  glob_filter: '*.txt',
  include: '*.txt',
};

const properties = (tool: AgentTool) => Object.keys((tool.jsonSchema['properties'] ?? {}) as object);

describe("the file tools' parameter names", () => {
  const ws = useWorkspace();
  const fresh = () => {
    writeFileSync(join(ws.dir, 'a.txt'), 'one\n');
    writeFileSync(join(ws.dir, 'b.md'), 'one\n');
  };

  it.each(RENAMED)('$tool.name shows the model `$spec`, not `$old`', ({ tool, spec, old }) => {
    expect(properties(tool)).toContain(spec);
    expect(properties(tool)).not.toContain(old);
  });

  it.each(RENAMED)(
    '$tool.name answers `$old` exactly as it answers `$spec`',
    async ({ tool, spec, old, args }) => {
      fresh();
      const bySpec = await runAgentTool(tool, { ...args, [spec]: VALUE[spec] }, ws.ctx());
      const afterSpec = readFileSync(join(ws.dir, 'a.txt'), 'utf8');
      fresh();
      const byOld = await runAgentTool(tool, { ...args, [old]: VALUE[old] }, ws.ctx());
      expect(bySpec.isError, bySpec.output).toBe(false);
      expect(byOld).toEqual(bySpec);
      expect(readFileSync(join(ws.dir, 'a.txt'), 'utf8')).toBe(afterSpec);
    },
  );

  it('a call giving both names keeps the spec name', async () => {
    fresh();
    const read = await runAgentTool(readFileTool, { file_path: 'b.md', path: 'a.txt' }, ws.ctx());
    expect(read.output).toBe('     1\tone');
    const grep = await runAgentTool(
      grepTool,
      { pattern: 'one', glob_filter: '*.md', include: '*.txt' },
      ws.ctx(),
    );
    expect(grep.output).toBe('b.md:1: one');
  });

  it('a call naming neither is refused with the spec name', async () => {
    expect((await runAgentTool(readFileTool, {}, ws.ctx())).output).toMatch(
      /^Invalid arguments for tool: read_file: file_path: /,
    );
  });

  it.each(PROFILE_PROVIDERS)('the %s profile presents the spec names', (id) => {
    const tools = getProfile(id).tools();
    for (const name of ['read_file', 'write_file', 'edit_file']) {
      const tool = tools.find((t) => t.name === name);
      if (tool) expect(properties(tool)).toContain('file_path');
    }
    const grep = tools.find((t) => t.name === 'grep');
    expect(grep && properties(grep)).toContain('glob_filter');
  });
});
