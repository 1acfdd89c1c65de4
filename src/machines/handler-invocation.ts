import type { AnyActorRef } from 'xstate';
import { fromHandler } from '../actors/handler-actor-logic.js';
import type { ChildPipelineHandle, HandlerInput, HandlerServices } from '../actors/handler-types.js';
import { runsBuiltInRouting } from '../actors/handlers/built-in-routing.js';
import { PipelineContext } from '../actors/pipeline-context.js';
import { createDefaultRegistry, type HandlerRegistry } from '../actors/registry.js';
import { runWithHooks } from '../actors/run-with-hooks.js';
import { resolveThreadId } from '../compiler/fidelity.js';
import type { FidelityMode, PipelineEdge, PipelineNode } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
import { routerCandidates, visitLimitFailure } from '../compiler/routing.js';
import { anySignal, type CombinedSignal } from '../shared/any-signal.js';
import { definedFields } from '../shared/defined-fields.js';
import { childPipelinesOf, runBranch, startChildPipeline } from './child-actors.js';
import { errorOutcome } from './error-outcome.js';
import {
  type InvocationRuntime,
  type PipelineHandlerActor,
  restoreInvocationInput,
} from './invocation-runtime.js';
import type { PipelineMachineContext } from './machine-context.js';
import { paceSteps } from './pace-steps.js';
import { missingBackend, missingInterviewer } from './pipeline-services.js';
import { stageDirFor } from './stage-dir.js';
import { type StageVisit, unrecordedStages } from './stage-store.js';
import { visitValuesView } from './visit-counts.js';

let registry: HandlerRegistry | undefined;
const defaultRegistry = (): HandlerRegistry => {
  registry ??= createDefaultRegistry();
  return registry;
};

/**
 * The services one handler invocation gets: the run's, with its events tagged for the branch or child
 * it runs in, and branches and child pipelines started as child actors of this handler actor (so an
 * inspector sees them under it, in the same actor system).
 */
function handlerServices(
  runtime: InvocationRuntime,
  self: AnyActorRef,
  context: PipelineMachineContext,
  children: ChildPipelineHandle[],
): HandlerServices {
  const { services } = runtime;
  const base = services.emit ?? (() => {});
  const tags = context.tags;
  const emit: HandlerServices['emit'] =
    Object.keys(tags).length === 0 ? base : (kind, data, nodeId) => base(kind, { ...data, ...tags }, nodeId);
  return {
    emit,
    ...definedFields({
      artifacts: services.artifacts,
      processes: services.processes,
      sandbox: services.sandbox,
      traceparent: services.traceparent,
      durable: services.durable,
      branchCheckpoints: services.branchCheckpoints,
    }),
    interviewer: services.interviewer ?? missingInterviewer(),
    backend: services.backend ?? missingBackend(),
    ...definedFields({ llmRank: services.llmRank, workingTree: services.workingTree }),
    runBranch: (request) => runBranch(runtime, self, context, request),
    startChildPipeline: (request) => {
      const child = startChildPipeline(runtime, self, context, request);
      children.push(child);
      return child;
    },
    observeChildRun: ({ runDir }) => childPipelinesOf(runtime).observe(runDir),
  };
}

/** A child pipeline's log entries join its manager's (read once the manager's handler is done). */
function collectChildLogs(
  children: readonly ChildPipelineHandle[],
  into: PipelineContext,
  node: string,
): void {
  for (const child of children) {
    for (const entry of child.status().logs ?? []) into.appendLog({ ...entry, parent: node });
  }
}

/** Handlers that apply the node `timeout` themselves (a human gate's default choice must win over it). */
const SELF_TIMED = new Set(['wait.human', 'tool']);

/**
 * `handler.<type>` actor logic for each handler type the graph uses, bound to the run's services.
 * Each invocation gets its node and the pipeline context through its input, so the same logic serves
 * the run and its parallel branches.
 */
export function createHandlerActors(runtime: InvocationRuntime): Record<string, PipelineHandlerActor> {
  const actors: Record<string, PipelineHandlerActor> = {};
  const logic = invocationLogic(runtime);
  for (const n of runtime.lookup.graph.nodes) actors[`handler.${n.handler}`] = logic;
  return actors;
}

function invocationLogic(runtime: InvocationRuntime): PipelineHandlerActor {
  return fromHandler(async ({ input, self, signal }) => {
    await paceSteps(runtime);
    const { context } = input;
    // The values as handlers and routing see them: with the visit counts (a view, not a copy).
    const values = visitValuesView(context.values, context.visits);
    const node = runtime.lookup.node(input.node);
    const stageDir = stageDirFor(context.runDir, node.id, context.restarts);
    // Over its max_visits the node does not run (nor its hooks, nor consume a scripted outcome): it fails,
    // and routing lets a fail edge or fallback_retry_target take over. Its status.json says so, rather
    // than showing the last visit that did run.
    const overLimit = visitLimitFailure(node, runtime.lookup.graph, values);
    // Taken before any wait, so branches consume a scenario's outcomes in the order they start.
    const scripted = overLimit ? undefined : runtime.services.scenario?.nextOutcome(node.id);
    const registry = runtime.services.registry ?? defaultRegistry();
    // Every node, start, exit and conditional too, gets its folder and status.json (the run layout);
    // the store decides when (the run's own routing nodes' wait for its next checkpoint.json).
    const stages = runtime.services.stages ?? unrecordedStages;
    const visit: StageVisit = {
      runDir: context.runDir,
      stageDir,
      routing: runsBuiltInRouting(registry, node.handler),
    };
    stages.begin(visit, { scripted: scripted !== undefined });
    if (overLimit) {
      const outcome: Outcome = { status: 'fail', failure_reason: overLimit };
      stages.record(visit, outcome, { keepWritten: false });
      return { outcome };
    }
    // Side effects start behind the run's record: a crash from here on never runs a completed node again
    // (the recorder writes off the event loop, so the checkpoint naming this node may still be on its way).
    if (!visit.routing && runtime.services.recorded) {
      await runtime.services.recorded();
      // Stopped while it waited: the machine discards this outcome, and the node runs again on resume.
      if (signal.aborted || runtime.services.signal?.aborted)
        return { outcome: { status: 'fail', failure_reason: 'stopped before it started' } };
    }
    const children: ChildPipelineHandle[] = [];
    const services = handlerServices(runtime, self, context, children);
    const handlerContext = new PipelineContext(values, node.id);
    let produced: Outcome | undefined;
    // Hooks wrap a scripted outcome too: it stands in for the handler's run (dry runs are audited alike).
    const hooked = await runWithHooks(registry.hooks, node, handlerContext, async () => {
      try {
        produced =
          scripted ??
          (await runHandler(
            runtime,
            registry,
            services,
            node,
            context,
            handlerContext,
            stageDir,
            signal,
            self,
          ));
      } catch (error) {
        // Caught here rather than by the machine, so after-hooks see the failure and appended logs survive.
        produced = errorOutcome(error);
      }
      collectChildLogs(children, handlerContext, node.id);
      return produced;
    });
    const outcome = withCollectedUpdates(hooked, handlerContext);
    // Stopped (the run was cancelled or paused hard) while the handler finished: the machine discards
    // this outcome and the node runs again on resume, so nothing may claim it completed. The run's
    // result has been reported by now, too: no file may appear in its folder after that.
    if (signal.aborted) return { outcome };
    // The handler's own status.json stands unless a hook or a `set` changed what it returned.
    stages.record(visit, outcome, { keepWritten: !scripted && outcome === produced });
    // The files as the node left them, before the next node starts: the run's own nodes only (branches
    // share the folder; their fan-out's snapshot holds what they all wrote).
    const ownNode = !visit.routing && !context.branch && Object.keys(context.tags).length === 0;
    const tree = ownNode ? await runtime.services.snapshotTree?.(node.id) : undefined;
    const llmChoice = await askRouter(runtime, services.emit, node, outcome, values, signal);
    const logs = handlerContext.getLogs();
    const retryJitter = outcome.status === 'retry' ? (runtime.services.random ?? Math.random)() : undefined;
    return {
      outcome,
      ...(llmChoice ? { llmChoice } : {}),
      ...(logs.length > 0 ? { logs } : {}),
      ...definedFields({ retryJitter, tree }),
    };
  }, restoreInvocationInput);
}

/** `context.set` values join the outcome's `context_updates`; the outcome's own updates win. */
function withCollectedUpdates(outcome: Outcome, context: PipelineContext): Outcome {
  const collected = context.pendingUpdates();
  if (Object.keys(collected).length === 0) return outcome;
  return { ...outcome, context_updates: { ...collected, ...outcome.context_updates } };
}

async function runHandler(
  runtime: InvocationRuntime,
  registry: HandlerRegistry,
  services: HandlerServices,
  node: PipelineNode,
  context: PipelineMachineContext,
  handlerContext: PipelineContext,
  stageDir: string,
  actorSignal: AbortSignal,
  self: AnyActorRef,
): Promise<Outcome> {
  const { lookup } = runtime;
  const edge: PipelineEdge | undefined =
    context.arrivedBy !== undefined ? lookup.edge(context.arrivedBy) : undefined;
  const fidelity: FidelityMode = context.fidelity;
  const threadId = resolveThreadId({
    ...definedFields({ edge }),
    node,
    graph: lookup.graph,
    ...(edge ? { previousNodeId: edge.source } : {}),
  });

  const ms = node.attrs.timeout;
  const timed = ms !== undefined && ms > 0 && !SELF_TIMED.has(node.handler);
  const timeout = timed ? new AbortController() : undefined;
  const hard = runtime.services.signal;
  // Made when the handler first reads it: routing handlers never do, and a combined signal costs an
  // AbortController and a listener on each source at every step.
  let combined: CombinedSignal | undefined;
  const signal = (): AbortSignal => {
    combined ??= anySignal([actorSignal, ...(timeout ? [timeout.signal] : []), ...(hard ? [hard] : [])]);
    return combined.signal;
  };
  const handler = registry.get(node.handler);
  const input: HandlerInput = {
    node,
    graph: lookup.graph,
    context: handlerContext,
    runDir: context.runDir,
    stageDir,
    fidelity,
    ...(threadId ? { threadId } : {}),
    attempt: (context.nodeRetries[node.id] ?? 0) + 1,
    ...(runtime.services.workingDir ? { workingDir: runtime.services.workingDir } : {}),
    get signal() {
      return signal();
    },
    services,
    actor: self,
    // Only fidelity summaries read the completed stages; build the list when asked (it is O(graph)).
    get completedNodes() {
      return context.completedNodes.map((id) => ({ id, status: context.nodeOutcomes[id] ?? 'success' }));
    },
  };
  const run = handler(input).finally(() => combined?.dispose());
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

/** docs/semantics.md S11: when no condition matched, a router model may pick among `llm_decide` edges. */
async function askRouter(
  runtime: InvocationRuntime,
  emit: HandlerServices['emit'],
  node: PipelineNode,
  outcome: Outcome,
  values: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
): Promise<string | undefined> {
  const rank = runtime.services.llmRank;
  if (!rank || outcome.status === 'fail') return undefined;
  const candidates = routerCandidates({
    edges: [...runtime.lookup.outgoing(node.id)],
    outcome,
    context: values,
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
    return await rank({
      nodeId: node.id,
      emit,
      prompt,
      candidates: candidates.map((e) => e.target),
      signal,
    });
  } catch {
    // docs/semantics.md S11: a router failure falls through to steps 2–5.
    return undefined;
  }
}
