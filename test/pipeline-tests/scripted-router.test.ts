import { describe, expect, it } from 'vitest';
import { createScriptedRouter } from '../../src/pipeline-tests/scripted-router.js';

const ask = (nodeId: string, candidates: string[]) => ({
  nodeId,
  prompt: 'choose',
  candidates,
  signal: new AbortController().signal,
});

describe('createScriptedRouter', () => {
  it('chooses per visit of a scripted node (the last repeats), and asks the fallback for the others', async () => {
    const router = createScriptedRouter(
      { route: ['hotfix', 'schedule'] },
      async ({ candidates }) => candidates[0],
    );
    const candidates = ['schedule', 'hotfix'];
    expect(await router(ask('route', candidates))).toBe('hotfix');
    expect(await router(ask('route', candidates))).toBe('schedule');
    expect(await router(ask('route', candidates))).toBe('schedule');
    expect(await router(ask('pick', ['b', 'a']))).toBe('b');
  });

  it('makes no choice when the scripted one is not among the candidates', async () => {
    const router = createScriptedRouter({ route: ['nowhere'] }, async () => 'fallback');
    expect(await router(ask('route', ['schedule']))).toBeUndefined();
  });
});
