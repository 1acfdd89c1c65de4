import { describe, expect, it } from 'vitest';
import { remoteUrl } from '../../src/cli/run-worker.js';

describe('attractor worker --git-remote', () => {
  it.each([
    ['https://git.example.com/team/snapshots.git', 'https://git.example.com/team/snapshots.git'],
    ['file:///srv/snapshots.git', 'file:///srv/snapshots.git'],
    ['git@git.example.com:team/snapshots.git', 'git@git.example.com:team/snapshots.git'],
    ['/srv/snapshots.git', '/srv/snapshots.git'],
    ['snapshots.git', '/home/me/snapshots.git'],
    ['../shared/snapshots.git', '/home/shared/snapshots.git'],
  ])('takes %s as %s (a relative folder from where the worker started)', (given, used) => {
    expect(remoteUrl(given, '/home/me')).toBe(used);
  });
});
