import { afterEach, describe, expect, it } from 'vitest';
import { exitHandler } from '../../../src/actors/handlers/exit.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeGraph, makeNode } from '../helpers/graph-builders.js';

describe('exitHandler', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it.each([[{}], [{ outcome: 'fail', x: 1 }]])(
    'returns SUCCESS and touches nothing, whatever the context (%j)',
    async (context) => {
      const { runDir, cleanup } = makeRunDir();
      cleanups.push(cleanup);
      const node = makeNode('n', { shape: 'Msquare' });
      const services = createFakeServices();
      const outcome = await exitHandler(
        makeInput({ node, graph: makeGraph({ nodes: [node] }), runDir, services, context }),
      );
      expect(outcome).toEqual({ status: 'success', notes: 'Pipeline reached exit node "n"' });
      expect(services.events).toEqual([]);
    },
  );
});
