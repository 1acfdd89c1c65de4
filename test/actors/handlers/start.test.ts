import { afterEach, describe, expect, it } from 'vitest';
import { startHandler } from '../../../src/actors/handlers/start.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeGraph, makeNode } from '../helpers/graph-builders.js';

describe('startHandler', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it.each([[{}], [{ outcome: 'fail', x: 1 }]])(
    'returns SUCCESS and touches nothing, whatever the context (%j)',
    async (context) => {
      const { runDir, cleanup } = makeRunDir();
      cleanups.push(cleanup);
      const node = makeNode('n', { shape: 'Mdiamond' });
      const services = createFakeServices();
      const outcome = await startHandler(
        makeInput({ node, graph: makeGraph({ nodes: [node] }), runDir, services, context }),
      );
      expect(outcome).toEqual({ status: 'success', notes: 'Pipeline started at n' });
      expect(services.events).toEqual([]);
    },
  );
});
