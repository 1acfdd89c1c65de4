import path from 'node:path';
import { type CompiledPipeline, compile, type LoadOptions } from '../compiler/compile.js';
import { defaultReadScope } from '../compiler/files/read-scope.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import { findStartNodes } from '../compiler/validate/graph-index.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { childPipelinesOf } from './child-actors.js';
import { childLevelsUnder } from './child-nesting.js';
import { CompileCache } from './compile-cache.js';
import { createGraphLookup, type GraphLookup } from './graph-lookup.js';
import { createHandlerActors } from './handler-invocation.js';
import type { InvocationRuntime } from './invocation-runtime.js';
import { type PipelineMachine, setupPipelineMachine } from './pipeline-machine.js';
import type { PipelineServices } from './pipeline-services.js';
import { pipelineBackoff } from './retry-delay.js';

export interface CompiledMachine extends CompiledPipeline {
  /** The XState v5 machine: the compiler's plain config with guards, actions and actors attached. */
  machine: PipelineMachine;
  lookup: GraphLookup;
}

export interface CompileMachineOptions extends LoadOptions {
  /** Default model (and provider) for codergen nodes that name none (`--model`, `--provider`). */
  model?: string;
  provider?: string;
}

const cache = new CompileCache<CompiledMachine>(32);

/**
 * DOT source (or a loaded graph) to a real XState machine, for embedding and inspection. Its handler
 * actors run with no services (built-in handlers; no interviewer, no LLM backend, no stores, so nothing is
 * recorded): give them with `providePipeline`. Compiling is cached by source, options (transforms and
 * rules by identity) and the content of every file it read (`CompileCache`).
 *
 * @example
 * const compiled = compileMachine(source);
 * const actor = createActor(providePipeline(compiled, { backend, interviewer }), {
 *   input: { startAt: 'start', runDir: '/tmp/run', values: {}, maxSteps: 100 },
 * }).start();
 */
export function compileMachine(
  input: string | PipelineGraph,
  options: CompileMachineOptions = {},
): CompiledMachine {
  return cache.getOrCompile(input, options, (readFile) => {
    const { model, provider, ...load } = options;
    const compiled = compile(input, { ...load, readFile });
    const graph = applyModelDefaults(compiled.graph, model, provider);
    const lookup = createGraphLookup(graph);
    const machine = machineFor(compiled.config, lookup, {});
    return { ...compiled, graph, lookup, machine };
  });
}

/**
 * The implementations (guards, actions, handler actors) attached to a plain config, such as the JSON
 * `attractor compile --format xstate` prints; `graph` is the pipeline it was lowered from (routing reads
 * its edges). Only the stores `services` gives are used (`createPipelineMachine` adds the file stores).
 */
export function machineFromConfig(
  config: MachineConfig,
  graph: PipelineGraph,
  services: PipelineServices = {},
): PipelineMachine {
  return machineFor(config, createGraphLookup(graph), services);
}

function machineFor(config: MachineConfig, lookup: GraphLookup, services: PipelineServices): PipelineMachine {
  let machine: PipelineMachine | undefined;
  machine = setupPipelineMachine(config, {
    lookup,
    handlerActors: createHandlerActors(
      runtimeFor(
        lookup,
        services,
        once(() => machine),
        childLevelsUnder(lookup.graph),
      ),
    ),
    ...definedFields({ random: services.random }),
  });
  return machine;
}

/**
 * The compiled machine with its handler actors bound to `services` (`machine.provide()`), so that
 * `createActor(bindServices(compiled, services), { input })` runs the pipeline, its parallel branches
 * and child pipelines as actors of one actor system. What `services` leaves out is not done: no stage
 * store records nothing, no child pipeline store fails manager loops (`providePipeline` gives the file
 * stores of a run directory).
 */
export function bindServices(compiled: CompiledMachine, services: PipelineServices = {}): PipelineMachine {
  return bindWithin(compiled, services, childLevelsUnder(compiled.lookup.graph));
}

/** `bindServices` for a pipeline under which `childLevels` more levels of child pipelines may start. */
function bindWithin(
  compiled: CompiledMachine,
  services: PipelineServices,
  childLevels: number,
): PipelineMachine {
  let provided: PipelineMachine | undefined;
  const runtime = runtimeFor(
    compiled.lookup,
    services,
    once(() => provided),
    childLevels,
  );
  provided = compiled.machine.provide({
    actors: {
      ...createHandlerActors(runtime),
      retryBackoff: pipelineBackoff(compiled.lookup, services.random ?? Math.random),
    },
  });
  return provided;
}

/**
 * The machine a runtime belongs to, known only once it is built: handler actors need it (branches are
 * more actors of it), and it needs the handler actors. Nothing asks before the first invocation.
 */
function once(get: () => PipelineMachine | undefined): () => PipelineMachine {
  return () => {
    const machine = get();
    if (!machine)
      throw new AttractorError('MACHINE_NOT_READY', 'a handler ran before its machine was built.');
    return machine;
  };
}

function runtimeFor(
  lookup: GraphLookup,
  services: PipelineServices,
  machine: () => PipelineMachine,
  childLevels: number,
): InvocationRuntime {
  const runtime: InvocationRuntime = {
    lookup,
    services,
    steps: 0,
    machine,
    childLevels,
    machineWith(overrides) {
      let provided: PipelineMachine | undefined;
      const inner = runtimeFor(
        lookup,
        { ...services, ...overrides },
        once(() => provided),
        childLevels,
      );
      provided = machine().provide({ actors: createHandlerActors(inner) });
      return provided;
    },
    childMachine(dotFile, options = {}) {
      // The child reads inside the parent's scope; its own names resolve against its folder.
      const scope = lookup.graph.readScope ?? defaultReadScope(lookup.graph.file);
      const { source, sha256 } = childPipelinesOf(runtime).read(dotFile, scope);
      // A type the run's registry does not list would run as its fallback (a coding agent): an error.
      const registered = services.registry?.types();
      const child = compileMachine(source, {
        file: dotFile,
        readScope: { ...scope, base: path.dirname(dotFile) },
        ...definedFields({ customHandlerTypes: registered }),
      });
      const start = findStartNodes(child.graph)[0];
      if (!start)
        throw new AttractorError('CHILD_PIPELINE_INVALID', `child pipeline ${dotFile} has no start node.`);
      const childServices = options.workingDir ? { ...services, workingDir: options.workingDir } : services;
      // A child may nest no deeper than its parent allows, whatever its own stack.max_depth says.
      const levels = Math.min(childLevels - 1, childLevelsUnder(child.graph));
      return { machine: bindWithin(child, childServices, levels), startAt: start.id, sha: sha256 };
    },
  };
  return runtime;
}

function applyModelDefaults(graph: PipelineGraph, model?: string, provider?: string): PipelineGraph {
  if (!model && !provider) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((n) =>
      n.handler !== 'codergen'
        ? n
        : {
            ...n,
            attrs: {
              ...n.attrs,
              ...(model && !n.attrs.llm_model ? { llm_model: model } : {}),
              ...(provider && !n.attrs.llm_provider ? { llm_provider: provider } : {}),
            },
          },
    ),
  };
}
