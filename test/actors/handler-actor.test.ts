import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createHandlerActor, createHandlerActors, handlerActorName } from '../../src/actors/handler-actor.js';
import type { HandlerInput, NodeHandler } from '../../src/actors/handler-types.js';
import { HandlerRegistry } from '../../src/actors/registry.js';
import { createFakeServices } from './helpers/fake-services.js';
import { makeGraph, makeNode } from './helpers/graph-builders.js';

function input(signal: AbortSignal): HandlerInput {
  const node = makeNode('n');
  return {
    node,
    graph: makeGraph({ nodes: [node] }),
    context: {},
    runDir: '/tmp',
    stageDir: '/tmp/n',
    fidelity: 'compact',
    attempt: 1,
    signal,
    services: createFakeServices(),
  };
}

/** Resolves when its signal aborts, with the abort reason in the notes. */
const waitsForAbort: NodeHandler = ({ signal }) =>
  new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve({ status: 'fail', notes: String(signal.reason) }));
  });

describe('createHandlerActor', () => {
  it("resolves with the handler's outcome", async () => {
    const actor = createActor(
      createHandlerActor(async ({ node }) => ({ status: 'success', notes: node.id })),
      {
        input: input(new AbortController().signal),
      },
    );
    actor.start();
    expect(await toPromise(actor)).toEqual({ status: 'success', notes: 'n' });
  });

  it("aborts the handler's signal when the engine aborts input.signal", async () => {
    const controller = new AbortController();
    const actor = createActor(createHandlerActor(waitsForAbort), { input: input(controller.signal) });
    actor.start();
    controller.abort('node timeout');
    expect(await toPromise(actor)).toEqual({ status: 'fail', notes: 'node timeout' });
  });

  it("aborts the handler's signal when the actor is stopped", async () => {
    let seen: AbortSignal | undefined;
    const handler: NodeHandler = ({ signal }) => {
      seen = signal;
      return new Promise(() => {});
    };
    const actor = createActor(createHandlerActor(handler), { input: input(new AbortController().signal) });
    actor.start();
    expect(seen?.aborted).toBe(false);
    actor.stop();
    expect(seen?.aborted).toBe(true);
  });

  it('rejects when the handler throws', async () => {
    const actor = createActor(
      createHandlerActor(async () => {
        throw new Error('bug');
      }),
      { input: input(new AbortController().signal) },
    );
    actor.subscribe({ error: () => {} });
    actor.start();
    await expect(toPromise(actor)).rejects.toThrow('bug');
  });
});

describe('createHandlerActors', () => {
  it('names actors handler.<type> and resolves extra types to the default handler', async () => {
    const fallback: NodeHandler = async () => ({ status: 'success', notes: 'fallback' });
    const registry = new HandlerRegistry(fallback).register('start', async () => ({ status: 'success' }));
    const actors = createHandlerActors(registry, ['custom', 'start']);
    expect(Object.keys(actors)).toEqual(['handler.start', 'handler.custom']);
    expect(handlerActorName('tool')).toBe('handler.tool');
    const actor = createActor(actors['handler.custom']!, { input: input(new AbortController().signal) });
    actor.start();
    expect(await toPromise(actor)).toEqual({ status: 'success', notes: 'fallback' });
  });
});
