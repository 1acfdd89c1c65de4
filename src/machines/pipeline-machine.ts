import { type PromiseActorLogic, setup } from 'xstate';
import type { RetryBackoffLogic } from '../actors/retry-backoff-actor.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import { decorateConfig } from './decorate-config.js';
import type { GraphLookup } from './graph-lookup.js';
import type {
  HandlerActorOutput,
  HandlerInvocationInput,
  PipelineHandlerActor,
} from './invocation-runtime.js';
import { initialContext, type PipelineMachineContext, type PipelineMachineInput } from './machine-context.js';
import type { MachineEmitted } from './machine-events.js';
import { nodeActions } from './node-actions.js';
import { pipelineGuards } from './pipeline-guards.js';
import type { PipelineMachineEvent } from './pipeline-machine-event.js';
import { pipelineBackoff } from './retry-delay.js';
import { routeActions } from './route-actions.js';
import { stopActions } from './stop-actions.js';

/** The config type a `setup()` result's `createMachine` takes. */
type SetupConfig<S> = S extends { createMachine: (config: infer C) => unknown } ? C : never;

export interface PipelineMachineOptions {
  lookup: GraphLookup;
  /** `handler.<type>` → actor logic, for every handler type the config invokes. */
  handlerActors: Record<string, PipelineHandlerActor>;
  random?: () => number;
}

/**
 * Attach the implementations (guards, actions, delays, handler actors) to the compiler's plain config.
 * Guards and actions are pure functions of (graph, context, event); all I/O happens in handler actors
 * and in the engine's listeners for the emitted events.
 */
export function setupPipelineMachine(config: MachineConfig, options: PipelineMachineOptions) {
  const { lookup } = options;
  // An embedder may provide its own `handler.<type>` as a plain promise actor (`fromPromise`).
  const actors: Record<
    string,
    | PipelineHandlerActor
    | PromiseActorLogic<HandlerActorOutput, HandlerInvocationInput>
    | RetryBackoffLogic<HandlerInvocationInput>
  > = {
    ...options.handlerActors,
    retryBackoff: pipelineBackoff(lookup, options.random ?? Math.random),
  };
  const pipelineSetup = setup({
    types: {} as {
      context: PipelineMachineContext;
      input: PipelineMachineInput;
      emitted: MachineEmitted;
      events: PipelineMachineEvent;
    },
    actors,
    guards: pipelineGuards,
    actions: { ...nodeActions(lookup), ...routeActions(lookup), ...stopActions },
  });
  // The compiled config names guards, actions and actors by string (it is plain data): decorateConfig
  // checks its shape and, once the machine exists, that every name it uses is implemented.
  const decorated = decorateConfig<SetupConfig<typeof pipelineSetup>>(config);
  const machine = pipelineSetup.createMachine({
    ...decorated.config,
    context: ({ input }) => initialContext(input),
  });
  decorated.verify(machine.implementations);
  return machine;
}

export type PipelineMachine = ReturnType<typeof setupPipelineMachine>;
