import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type AnyActorLogic, type AnyActorRef, fromPromise } from 'xstate';
import type { HandlerInput, HandlerServices } from '../actors/handler-types.js';
import type { HandlerRegistry } from '../actors/registry.js';
import { outcomeToStatusFile } from '../actors/status-file.js';
import { resolveThreadId } from '../compiler/fidelity.js';
import type { FidelityMode, PipelineEdge, PipelineNode } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
import { routerCandidates, visitLimitFailure } from '../compiler/routing.js';
import { anySignal } from '../shared/any-signal.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import type { PipelineMachineContext } from './pipeline-context.js';
import type { HandlerActorOutput } from './pipeline-machine.js';
import type { GraphLookup } from './pipeline-runtime.js';
import { stageDirFor } from './run-directory.js';
import type { Scenario } from './scenario.js';

const ROUTING_ONLY = new Set(['start', 'exit', 'conditional']);
/** Handlers that apply the node `timeout` themselves (a human gate's default choice must win over it). */
const SELF_TIMED = new Set(['wait.human', 'tool']);

/** The systemId of a pipeline actor: handler actors read its context through the actor system. */
export const PIPELINE_SYSTEM_ID = 'attractor.pipeline';

export interface InvocationRuntime {
  lookup: GraphLookup;
  registry: HandlerRegistry;
  runDir: string;
  services: HandlerServices;
  scenario?: Scenario;
  /** Aborts every running handler at once (second Ctrl-C). */
  hardAbort: AbortSignal;
  /** Where tool commands run. */
  workingDir?: string;
  /** Handler invocations so far (for yielding to the event loop). */
  steps: number;
}

const YIELD_EVERY = 64;

/**
 * `handler.<type>` actor logic for each handler type the graph uses. The compiled config passes only
 * `{ node }` as input (it is plain data); the actor reads the pipeline's current context from the
 * actor system, so it sees the context as of entering the node.
 */
export function createHandlerActors(lookup: GraphLookup): Record<string, AnyActorLogic> {
  const actors: Record<string, AnyActorLogic> = {};
  const logic = invocationLogic();
  for (const n of lookup.graph.nodes) actors[`handler.${n.handler}`] = logic;
  return actors;
}

/**
 * One machine serves every actor of a graph (the run, each parallel branch); what differs per actor
 * (run directory, services, scenario) is registered against its actor system.
 */
const runtimes = new WeakMap<object, InvocationRuntime>();

export function bindRuntime(system: object, runtime: InvocationRuntime): void {
  runtimes.set(system, runtime);
}

function invocationLogic(): AnyActorLogic {
  return fromPromise<HandlerActorOutput, { node: string }>(async ({ input, system, signal }) => {
    const runtime = runtimes.get(system);
    if (!runtime) throw new Error('no runtime bound to this pipeline actor system');
    // Steps of no-op handlers chain through microtasks only; let signals and timers in now and then.
    if (++runtime.steps % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    const pipeline = system.get(PIPELINE_SYSTEM_ID) as AnyActorRef | undefined;
    const context = pipeline?.getSnapshot().context as PipelineMachineContext;
    const node = runtime.lookup.node(input.node);
    // Over its max_visits the node does not run (nor consume a scripted outcome): it fails, and routing
    // lets a fail edge or fallback_retry_target take over.
    const overLimit = visitLimitFailure(node, runtime.lookup.graph, context.values);
    if (overLimit) return { outcome: { status: 'fail', failure_reason: overLimit } };
    const stageDir = stageDirFor(runtime.runDir, node.id, context.restarts);
    // Routing-only nodes write nothing; skipping their folder keeps a no-op step to one fsync'd write.
    if (!ROUTING_ONLY.has(node.handler)) mkdirSync(stageDir, { recursive: true });

    const scripted = runtime.scenario?.nextOutcome(node.id);
    const writesStatus = !ROUTING_ONLY.has(node.handler);
    // A status.json from an earlier visit must not pass for this one's. Removing it (rather than
    // comparing mtimes) is exact: kernels stamp mtimes from a coarse clock that lags Date.now().
    if (!scripted && writesStatus) rmSync(join(stageDir, 'status.json'), { force: true });
    const outcome = scripted ?? (await runHandler(runtime, node, context, stageDir, signal));
    if (scripted || writesStatus) recordStatus(stageDir, outcome, !scripted);
    const llmChoice = await askRouter(runtime, node, outcome, context, signal);
    return llmChoice ? { outcome, llmChoice } : { outcome };
  });
}

/**
 * `<stage>/status.json` holds every node's outcome (spec ATR-E4). A handler (or an external agent, the
 * status-file contract) that wrote it during this visit keeps its file; otherwise the engine writes the
 * outcome. Routing-only nodes (start, exit, conditional) have no stage directory: their outcomes are in
 * events.jsonl and the checkpoint.
 */
function recordStatus(stageDir: string, outcome: Outcome, keepWritten: boolean): void {
  const path = join(stageDir, 'status.json');
  if (keepWritten && existsSync(path)) return;
  mkdirSync(stageDir, { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(outcomeToStatusFile(outcome), null, 2)}\n`, { durable: false });
}

async function runHandler(
  runtime: InvocationRuntime,
  node: PipelineNode,
  context: PipelineMachineContext,
  stageDir: string,
  actorSignal: AbortSignal,
): Promise<Outcome> {
  const { lookup } = runtime;
  const edge: PipelineEdge | undefined =
    context.arrivedBy !== undefined ? lookup.edge(context.arrivedBy) : undefined;
  const fidelity: FidelityMode = context.fidelity;
  const threadId = resolveThreadId({
    ...(edge ? { edge } : {}),
    node,
    graph: lookup.graph,
    ...(edge ? { previousNodeId: edge.source } : {}),
  });

  const ms = node.attrs.timeout;
  const timed = ms !== undefined && ms > 0 && !SELF_TIMED.has(node.handler);
  const timeout = timed ? new AbortController() : undefined;
  const combined = anySignal(
    timeout ? [actorSignal, timeout.signal, runtime.hardAbort] : [actorSignal, runtime.hardAbort],
  );
  const { signal } = combined;
  const handler = runtime.registry.get(node.handler);
  const input: HandlerInput = {
    node,
    graph: lookup.graph,
    context: context.values,
    runDir: runtime.runDir,
    stageDir,
    fidelity,
    ...(threadId ? { threadId } : {}),
    attempt: (context.nodeRetries[node.id] ?? 0) + 1,
    ...(runtime.workingDir ? { workingDir: runtime.workingDir } : {}),
    signal,
    services: runtime.services,
  };
  // Only fidelity summaries read the completed stages; build the list when asked (it is O(graph)).
  Object.defineProperty(input, 'completedNodes', {
    enumerable: true,
    get: () => context.completedNodes.map((id) => ({ id, status: context.nodeOutcomes[id] ?? 'success' })),
  });
  const run = handler(input).finally(() => combined.dispose());
  if (!timeout || !ms) return run;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      timeout.abort(new Error(`timed out after ${ms} ms`));
      resolve({ status: 'fail', failure_reason: `node ${node.id} timed out after ${ms} ms` });
    }, ms);
  });
  try {
    return await Promise.race([run, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** DECISIONS §11: when no condition matched, a router model may pick among `llm_decide` edges. */
async function askRouter(
  runtime: InvocationRuntime,
  node: PipelineNode,
  outcome: Outcome,
  context: PipelineMachineContext,
  signal: AbortSignal,
): Promise<string | undefined> {
  const rank = runtime.services.llmRank;
  if (!rank || outcome.status === 'fail') return undefined;
  const candidates = routerCandidates({
    edges: [...runtime.lookup.outgoing(node.id)],
    outcome,
    context: context.values,
  });
  if (!candidates || candidates.length === 0) return undefined;
  const goal = runtime.lookup.graph.attrs.goal ?? '';
  const prompt = [
    `Goal: ${goal}`,
    `Node ${node.id} finished with status ${outcome.status}.`,
    outcome.notes ? `Notes: ${outcome.notes}` : '',
    'Choose the next node.',
  ]
    .filter(Boolean)
    .join('\n');
  try {
    return await rank({ prompt, candidates: candidates.map((e) => e.target), signal });
  } catch {
    // DECISIONS §11: a router failure falls through to steps 2–5.
    return undefined;
  }
}
