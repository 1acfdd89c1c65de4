import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  gatherEnvironmentInfo,
  renderEnvironmentBlock,
  summarizeGitStatus,
} from '../../../src/agent/profiles/environment-context.js';
import { tempDir } from '../session/session-fixtures.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd });

describe('environment context', () => {
  it('reports a plain directory as not a repository', async () => {
    const dir = tempDir();
    const info = await gatherEnvironmentInfo({
      workingDirectory: dir,
      platform: 'linux',
      model: 'claude-sonnet-4-6',
      now: new Date('2026-03-01T12:00:00Z'),
    });
    expect(info).toEqual({
      workingDirectory: dir,
      platform: 'linux',
      date: '2026-03-01',
      model: 'claude-sonnet-4-6',
      isGitRepository: false,
    });
    expect(renderEnvironmentBlock(info)).toBe(
      [
        '<environment>',
        `Working directory: ${dir}`,
        'Is git repository: no',
        'Platform: linux',
        "Today's date: 2026-03-01",
        'Model: claude-sonnet-4-6',
        '</environment>',
      ].join('\n'),
    );
  });

  it('reads the branch, short status and recent commits of a git repository', async () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '-b', 'feature/x');
    writeFileSync(join(dir, 'a.txt'), 'a');
    git(dir, 'add', 'a.txt');
    git(dir, 'commit', '-q', '-m', 'first commit');
    writeFileSync(join(dir, 'a.txt'), 'changed');
    writeFileSync(join(dir, 'new.txt'), 'new');
    const info = await gatherEnvironmentInfo({ workingDirectory: dir, platform: 'linux', model: 'm' });
    expect(info).toMatchObject({
      isGitRepository: true,
      gitBranch: 'feature/x',
      gitStatus: '1 modified, 1 untracked',
      recentCommits: ['first commit'],
    });
    const block = renderEnvironmentBlock(info);
    expect(block).toContain('Git branch: feature/x');
    expect(block).toContain('Git status: 1 modified, 1 untracked');
    expect(block).toContain('  - first commit');
  });

  it.each([
    ['', 'clean'],
    [' M a.ts\n M b.ts\n?? c.ts', '2 modified, 1 untracked'],
    ['A  x\nD  y\nR  z -> w', '1 added, 1 deleted, 1 renamed'],
  ])('summarizes %j as %s', (porcelain, summary) => {
    expect(summarizeGitStatus(porcelain)).toBe(summary);
  });
});
