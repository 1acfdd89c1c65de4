import { afterEach, describe, expect, it } from 'vitest';
import type { NodeHandler } from '../../../src/actors/handler-types.js';
import { conditionalHandler } from '../../../src/actors/handlers/conditional.js';
import { exitHandler } from '../../../src/actors/handlers/exit.js';
import { startHandler } from '../../../src/actors/handlers/start.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeGraph, makeNode } from '../helpers/graph-builders.js';

describe('start, exit and conditional handlers', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of dirs.splice(0)) cleanup();
  });

  it.each<[string, NodeHandler, string, string]>([
    ['start', startHandler, 'Mdiamond', 'Pipeline started at n'],
    ['exit', exitHandler, 'Msquare', 'Pipeline reached exit n'],
    ['conditional', conditionalHandler, 'diamond', 'Conditional node evaluated: n'],
  ])('%s returns SUCCESS with no context updates', async (_name, handler, shape, notes) => {
    const { runDir, cleanup } = makeRunDir();
    dirs.push(cleanup);
    const node = makeNode('n', { shape });
    const services = createFakeServices();
    const outcome = await handler(
      makeInput({ node, graph: makeGraph({ nodes: [node] }), runDir, services, context: { x: 1 } }),
    );
    expect(outcome).toEqual({ status: 'success', notes });
    expect(services.events).toEqual([]);
  });
});
