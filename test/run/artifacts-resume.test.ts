import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import { tempDir } from '../helpers/run-helpers.js';

const PIPELINE = `digraph art {
  start [shape=Mdiamond]
  produce [type="produce"]
  consume [type="consume"]
  exit [shape=Msquare]
  start -> produce -> consume -> exit
}`;

describe('artifacts across a resume', () => {
  it('a resumed run retrieves artifacts stored before the interruption, small and file-backed', async () => {
    const ids: Record<string, string> = {};
    let seen: unknown[] = [];
    let pause = (): void => {};
    const registry = createDefaultRegistry()
      .register('produce', async ({ services }) => {
        const store = services.artifacts;
        if (!store) throw new Error('no artifact store');
        ids['small'] = store.store('small', { n: 1 }).id;
        ids['big'] = store.store('big', 'z'.repeat(200_000)).id;
        pause(); // like Ctrl-C during this node: the run stops before `consume`
        return { status: 'success' };
      })
      .register('consume', async ({ services }) => {
        seen = [
          services.artifacts?.retrieve(ids['small'] ?? ''),
          services.artifacts?.retrieve(ids['big'] ?? ''),
        ];
        return { status: 'success' };
      });
    const runDir = `${tempDir()}/run`;
    const first = startPipeline({ source: PIPELINE, runDir, registry, durable: false });
    pause = () => first.pause();
    expect((await first.result).status).toBe('paused');
    expect(seen).toEqual([]);
    const resumed = resumePipeline({ from: runDir, registry, durable: false });
    expect((await resumed.result).status).toBe('completed');
    expect(seen[0]).toEqual({ n: 1 });
    expect(seen[1]).toHaveLength(200_000);
  });
});
