import { createHash } from 'node:crypto';
import path from 'node:path';
import { type CompiledPipeline, compile, type LoadOptions } from '../compiler/compile.js';
import { MAX_NAMED_FILE_BYTES } from '../compiler/files/read-named-file.js';
import { defaultReadScope } from '../compiler/files/read-scope.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import { findStartNodes } from '../compiler/validate/graph-index.js';
import { AttractorError } from '../shared/errors.js';
import { readConfinedFile } from '../shared/read-confined-file.js';
import { createHandlerActors } from './handler-invocation.js';
import type { InvocationRuntime } from './invocation-runtime.js';
import { type PipelineMachine, setupPipelineMachine } from './pipeline-machine.js';
import { createGraphLookup, type GraphLookup } from './pipeline-runtime.js';
import type { PipelineServices } from './pipeline-services.js';
import { retryBackoffActor } from './retry-backoff-actor.js';
import type { StageRecords } from './stage-records.js';

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

const CACHE_SIZE = 32;
const cache = new Map<string, CompiledMachine>();

/**
 * DOT source (or a loaded graph) to a real XState machine, for embedding and inspection. Its handler
 * actors run with no services (built-in handlers; no interviewer, no LLM backend): give them with
 * `providePipeline`. Compiling is cached per source hash and options (not when the source names
 * `@file` prompts, whose files may change, nor with custom transforms or rules).
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
  const key = cacheKey(input, options);
  const cached = key ? cache.get(key) : undefined;
  if (cached) return cached;
  const { model, provider, ...load } = options;
  const compiled = compile(input, load);
  const graph = applyModelDefaults(compiled.graph, model, provider);
  const lookup = createGraphLookup(graph);
  const machine = machineFor(compiled.config, lookup, {});
  const result: CompiledMachine = { ...compiled, graph, lookup, machine };
  if (key) {
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(key, result);
  }
  return result;
}

/**
 * The published implementations (guards, actions, delays, handler actors) attached to a plain config,
 * such as the JSON `attractor compile --format xstate` prints; `graph` is the pipeline it was lowered
 * from (routing reads its edges).
 *
 * @example
 * const { graph } = loadPipeline(source);
 * const machine = createPipelineMachine(JSON.parse(printedConfig), graph, { backend, interviewer });
 */
export function createPipelineMachine(
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
      ),
    ),
    ...(services.random ? { random: services.random } : {}),
  });
  return machine;
}

/**
 * The compiled machine with its handler actors bound to `services` (`machine.provide()`), so that
 * `createActor(providePipeline(compiled, services), { input })` runs the pipeline, its parallel branches
 * and child pipelines as actors of one actor system.
 */
export function providePipeline(compiled: CompiledMachine, services: PipelineServices = {}): PipelineMachine {
  return bindPipeline(compiled, services).machine;
}

interface BoundMachine {
  machine: PipelineMachine;
  runtime: InvocationRuntime;
}

const IDLE_PER_PIPELINE = 4;
const idle = new WeakMap<CompiledMachine, BoundMachine[]>();

/**
 * `providePipeline` for one engine run, which says when it is over: the machine a finished run of the
 * same compiled pipeline was bound with is bound to the new run's services and used again. Binding
 * with `provide()` rebuilds every state node of the chart (O(graph) per run: about a tenth of a
 * 10-node run's CPU); rebinding swaps the runtime's services. Only for callers that own the machine's
 * whole life (`executeRun`): a machine handed to users is never rebound under them.
 */
export function leasePipeline(
  compiled: CompiledMachine,
  services: PipelineServices,
  stageRecords?: StageRecords,
): { machine: PipelineMachine; release(): void } {
  const free = idle.get(compiled);
  let bound = free?.pop();
  if (bound) {
    bound.runtime.services = services;
    bound.runtime.steps = 0;
  } else {
    bound = bindPipeline(compiled, services);
  }
  const lease = bound;
  if (stageRecords) lease.runtime.stageRecords = stageRecords;
  let released = false;
  return {
    machine: lease.machine,
    release() {
      if (released) return;
      released = true;
      // Drop the run's services (event sink, signals, stores) so an idle machine holds nothing of it.
      lease.runtime.services = {};
      delete lease.runtime.stageRecords;
      const list = idle.get(compiled) ?? [];
      if (list.length < IDLE_PER_PIPELINE) list.push(lease);
      idle.set(compiled, list);
    },
  };
}

/** A rebindable binding: the retry wait reads `random` from the runtime, so swapping services is enough. */
function bindPipeline(compiled: CompiledMachine, services: PipelineServices): BoundMachine {
  let provided: PipelineMachine | undefined;
  const runtime = runtimeFor(
    compiled.lookup,
    services,
    once(() => provided),
  );
  const random = () => (runtime.services.random ?? Math.random)();
  provided = compiled.machine.provide({
    actors: { ...createHandlerActors(runtime), retryBackoff: retryBackoffActor(compiled.lookup, random) },
  });
  return { machine: provided, runtime };
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
): InvocationRuntime {
  const runtime: InvocationRuntime = {
    lookup,
    services,
    steps: 0,
    machine,
    childMachine(dotFile, options = {}) {
      // The services of the run now bound (a leased machine is rebound from run to run).
      const { services } = runtime;
      // The child reads inside the parent's scope; its own names resolve against its folder.
      const scope = lookup.graph.readScope ?? defaultReadScope(lookup.graph.file);
      const read = readConfinedFile(dotFile, { roots: scope.roots, maxBytes: MAX_NAMED_FILE_BYTES });
      if (!read.ok) {
        throw new AttractorError(
          read.problem === 'outside' ? 'FILE_NOT_ALLOWED' : 'CHILD_PIPELINE_NOT_FOUND',
          `cannot read child pipeline ${dotFile}: ${read.reason}.`,
        );
      }
      const source = read.text;
      const child = compileMachine(source, {
        file: dotFile,
        readScope: { ...scope, base: path.dirname(dotFile) },
      });
      const start = findStartNodes(child.graph)[0];
      if (!start)
        throw new AttractorError('CHILD_PIPELINE_INVALID', `child pipeline ${dotFile} has no start node.`);
      const childServices = options.workingDir ? { ...services, workingDir: options.workingDir } : services;
      return { machine: providePipeline(child, childServices), startAt: start.id, source };
    },
  };
  return runtime;
}

function cacheKey(input: string | PipelineGraph, options: CompileMachineOptions): string | undefined {
  if (typeof input !== 'string' || options.transforms || options.rules || input.includes('@'))
    return undefined;
  const { file, goal, customHandlerTypes, model, provider, readScope, readFile } = options;
  if (readFile) return undefined;
  return createHash('sha256')
    .update(input)
    .update(JSON.stringify([file, goal, customHandlerTypes, model, provider, readScope]))
    .digest('hex');
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
