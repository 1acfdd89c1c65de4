import { fromPromise, type PromiseActorLogic } from 'xstate';
import type { Outcome } from '../compiler/outcome.js';
import type { HandlerInput, NodeHandler } from './handler-types.js';
import type { HandlerRegistry } from './registry.js';

export type HandlerActorLogic = PromiseActorLogic<Outcome, HandlerInput>;

/** The actor name the machine invokes for a handler type. */
export const handlerActorName = (type: string): `handler.${string}` => `handler.${type}`;

/**
 * Wrap a NodeHandler as XState promise logic. The handler sees one signal that aborts when either the
 * engine aborts the visit (`input.signal`: node timeout, cancel) or XState stops the actor (the machine
 * left the state, or was stopped).
 *
 * @example
 * setup({ actors: { 'handler.codergen': createHandlerActor(codergenHandler) } })
 */
export function createHandlerActor(handler: NodeHandler): HandlerActorLogic {
  return fromPromise<Outcome, HandlerInput>(({ input, signal }) =>
    handler({ ...input, signal: AbortSignal.any([input.signal, signal]) }),
  );
}

/**
 * `handler.<type>` actors for every registered type plus `extraTypes` (custom types the graph uses, which
 * resolve to the registry's default handler), ready for `setup({ actors })`.
 */
export function createHandlerActors(
  registry: HandlerRegistry,
  extraTypes: readonly string[] = [],
): Record<string, HandlerActorLogic> {
  const actors: Record<string, HandlerActorLogic> = {};
  for (const type of new Set([...registry.types(), ...extraTypes])) {
    actors[handlerActorName(type)] = createHandlerActor(registry.get(type));
  }
  return actors;
}
