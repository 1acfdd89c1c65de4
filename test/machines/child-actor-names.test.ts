import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyActorRef } from 'xstate';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

const PARALLEL = `digraph par {
  start [shape=Mdiamond]
  fan [shape=component]
  a [type="wait"]
  b [type="wait"]
  join [shape=tripleoctagon]
  exit [shape=Msquare]
  start -> fan
  fan -> a -> join
  fan -> b -> join
  join -> exit
}`;

describe('the actors a run starts, as the actor system shows them', () => {
  it('names handlers after their node and branches after their branch, children of the handler that started them', async () => {
    const runDir = join(tempDir(), 'run');
    const actors = new Map<string, AnyActorRef>();
    let seen: { children: string[]; bySystemId: boolean } | undefined;
    let release = (): void => {};
    const bothWaiting = new Promise<void>((resolve) => {
      let waiting = 0;
      release = () => {
        waiting += 1;
        if (waiting === 2) resolve();
      };
    });
    const registry = createDefaultRegistry().register('wait', async (input) => {
      release();
      await bothWaiting;
      if (input.node.id === 'a') {
        const fan = actors.get('fan');
        const snapshot = fan?.getSnapshot() as { children?: Record<string, AnyActorRef> } | undefined;
        seen = {
          children: Object.keys(snapshot?.children ?? {}).sort(),
          bySystemId: fan?.system.get(join(runDir, 'fan', 'branches', 'b'))?.id === 'branch:b',
        };
      }
      return { status: 'success' };
    });
    const run = await runDot(PARALLEL, {
      runDir,
      registry,
      inspect: (event) => {
        const ref = event.actorRef as AnyActorRef;
        if (event.type === '@xstate.actor') actors.set(ref.id, ref);
      },
    });
    expect(run.result.status).toBe('completed');
    // Every handler is named after its node, every branch after its branch, under the parallel node.
    expect([...actors.keys()]).toEqual(
      expect.arrayContaining(['start', 'fan', 'branch:a', 'branch:b', 'a', 'b', 'join', 'exit']),
    );
    expect(actors.get('branch:a')?._parent?.id).toBe('fan');
    expect(actors.get('a')?._parent?.id).toBe('branch:a');
    expect(seen).toEqual({ children: ['branch:a', 'branch:b'], bySystemId: true });
    // Finished branches leave the handler's children.
    const fan = actors.get('fan')?.getSnapshot() as { children?: Record<string, unknown> };
    expect(fan.children).toEqual({});
  });
});
