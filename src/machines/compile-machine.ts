import { type CompiledPipeline, compile, type LoadOptions } from '../compiler/compile.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { createHandlerActors } from './handler-invocation.js';
import { createPipelineMachine, type PipelineMachine } from './pipeline-machine.js';
import { createGraphLookup } from './pipeline-runtime.js';

export interface CompiledMachine extends CompiledPipeline {
  /** The XState v5 machine: the compiler's plain config with guards, actions and actors attached. */
  machine: PipelineMachine;
}

/**
 * DOT source (or a loaded graph) to a real XState machine, for embedding and inspection. Running it
 * needs the engine's per-run services: `startPipeline` does that; `createActor(machine)` alone starts
 * and routes, but its handler actors fail without a bound runtime.
 *
 * @example
 * const { machine } = compileMachine(source);
 * machine.config.states; // one state per node
 */
export function compileMachine(input: string | PipelineGraph, options: LoadOptions = {}): CompiledMachine {
  const compiled = compile(input, options);
  const lookup = createGraphLookup(compiled.graph);
  return {
    ...compiled,
    machine: createPipelineMachine(compiled.config, { lookup, handlerActors: createHandlerActors(lookup) }),
  };
}
