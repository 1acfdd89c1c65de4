import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  directoriesFromRoot,
  discoverInstructionFiles,
  INSTRUCTIONS_TRUNCATED_MARKER,
  renderProjectInstructions,
} from '../../../src/agent/profiles/instruction-files.js';
import { tempDir } from '../session/session-fixtures.js';

function project(): { root: string; cwd: string } {
  const root = tempDir();
  const cwd = join(root, 'packages', 'app');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(root, 'AGENTS.md'), 'root agents');
  writeFileSync(join(root, 'CLAUDE.md'), 'root claude');
  writeFileSync(join(root, 'GEMINI.md'), 'root gemini');
  writeFileSync(join(root, 'packages', 'AGENTS.md'), 'packages agents');
  writeFileSync(join(cwd, 'CLAUDE.md'), 'app claude');
  return { root, cwd };
}

describe('instruction files', () => {
  it('walks from the root down to the working directory, shallow first, loading only the named files', async () => {
    const { root, cwd } = project();
    const files = await discoverInstructionFiles({
      workingDirectory: cwd,
      gitRoot: root,
      names: ['AGENTS.md', 'CLAUDE.md'],
    });
    expect(files.map((f) => f.content)).toEqual([
      'root agents',
      'root claude',
      'packages agents',
      'app claude',
    ]);
    const gemini = await discoverInstructionFiles({
      workingDirectory: cwd,
      gitRoot: root,
      names: ['AGENTS.md', 'GEMINI.md'],
    });
    expect(gemini.map((f) => f.content)).toEqual(['root agents', 'root gemini', 'packages agents']);
  });

  it('looks only in the working directory when there is no repository root', async () => {
    const { cwd } = project();
    const files = await discoverInstructionFiles({
      workingDirectory: cwd,
      names: ['AGENTS.md', 'CLAUDE.md'],
    });
    expect(files.map((f) => f.content)).toEqual(['app claude']);
  });

  it('finds the root through git in a real repository', async () => {
    const { root, cwd } = project();
    execFileSync('git', ['init', '-q'], { cwd: root });
    const { gatherEnvironmentInfo } = await import('../../../src/agent/profiles/environment-context.js');
    const info = await gatherEnvironmentInfo({ workingDirectory: cwd, platform: 'linux', model: 'm' });
    const files = await discoverInstructionFiles({
      workingDirectory: cwd,
      gitRoot: info.gitRoot!,
      names: ['AGENTS.md'],
    });
    expect(files.map((f) => f.content)).toEqual(['root agents', 'packages agents']);
  });

  it('directoriesFromRoot refuses to climb outside the root', () => {
    expect(directoriesFromRoot('/a', '/a/b/c')).toEqual(['/a', '/a/b', '/a/b/c']);
    expect(directoriesFromRoot('/a', '/a')).toEqual(['/a']);
    expect(directoriesFromRoot('/a', '/x/y')).toEqual(['/x/y']);
  });

  it('cuts the rendered instructions at the 32 KB budget with the marker', () => {
    const small = renderProjectInstructions([{ path: '/p/AGENTS.md', content: 'be nice\n' }]);
    expect(small).toBe('## /p/AGENTS.md\n\nbe nice');
    const big = renderProjectInstructions([{ path: '/p/AGENTS.md', content: 'é'.repeat(40_000) }]);
    expect(big.endsWith(`\n${INSTRUCTIONS_TRUNCATED_MARKER}`)).toBe(true);
    const body = big.slice(0, -INSTRUCTIONS_TRUNCATED_MARKER.length - 1);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(32 * 1024);
    expect(body).not.toContain('\uFFFD');
    expect(renderProjectInstructions([])).toBe('');
  });
});
