import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodergenBackend } from '../actors/codergen-backend.js';
import type {
  BranchResult,
  ChildPipelineHandle,
  ChildPipelineStatus,
  HandlerServices,
} from '../actors/handler-types.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import type { HandlerRegistry } from '../actors/registry.js';
import { compile } from '../compiler/compile.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import { CONTROL_STATES } from '../compiler/lower/state-keys.js';
import type { Outcome } from '../compiler/outcome.js';
import { findStartNodes } from '../compiler/validate/graph-index.js';
import { anySignal } from '../shared/any-signal.js';
import type { ArtifactStore } from '../shared/artifact-store.js';
import { AttractorError } from '../shared/errors.js';
import type { EmitEvent } from '../shared/pipeline-event.js';
import type { MachineEmitted } from './machine-events.js';
import { startExecution } from './pipeline-execution.js';
import type { GraphLookup } from './pipeline-runtime.js';
import { safeSegment } from './run-directory.js';
import type { Scenario } from './scenario.js';

export interface ServiceDeps {
  graph: PipelineGraph;
  config: MachineConfig;
  lookup?: GraphLookup;
  runDir: string;
  registry: HandlerRegistry;
  interviewer: Interviewer;
  backend: CodergenBackend;
  scenario?: Scenario;
  hardAbort: AbortSignal;
  maxSteps: number;
  llmRank?: HandlerServices['llmRank'];
  workingDir?: string;
  artifacts?: ArtifactStore;
  processes?: HandlerServices['processes'];
  /** Where events of this pipeline (and its branches and children) go. */
  emit: EmitEvent;
}

/**
 * The services handlers get: events, the interviewer, the codergen backend, and the ability to run
 * parallel branches and child pipelines — each as its own pipeline actor built from the same machinery.
 */
export function createServices(deps: ServiceDeps): HandlerServices {
  const services: HandlerServices = {
    emit: deps.emit,
    ...(deps.artifacts ? { artifacts: deps.artifacts } : {}),
    ...(deps.processes ? { processes: deps.processes } : {}),
    interviewer: deps.interviewer,
    backend: deps.backend,
    ...(deps.llmRank ? { llmRank: deps.llmRank } : {}),
    runBranch: (request) => runBranch(deps, services, request),
    startChildPipeline: (request) => startChildPipeline(deps, request),
  };
  return services;
}

function forward(emit: EmitEvent, extra: Record<string, unknown>) {
  return (e: MachineEmitted) => {
    if (e.type === 'pipeline.event') emit(e.kind, { ...e.data, ...extra }, e.nodeId);
  };
}

async function runBranch(
  deps: ServiceDeps,
  parentServices: HandlerServices,
  request: Parameters<HandlerServices['runBranch']>[0],
): Promise<BranchResult> {
  // An abort that already happened fires no event: without this check the branch would run in full.
  if (request.signal.aborted || deps.hardAbort.aborted) {
    return {
      branchId: request.branchId,
      startNodeId: request.startNodeId,
      outcome: { status: 'fail', failure_reason: 'cancelled before the branch started' },
      context: request.context,
      updates: {},
      completedNodes: [],
    };
  }
  const abort = anySignal([deps.hardAbort, request.signal]);
  const branchEmit: EmitEvent = (kind, data, nodeId) =>
    deps.emit(kind, { ...data, branch: request.branchId }, nodeId);
  // Updates are found by identity against this clone: the machine copies values shallowly, so a value
  // the branch left alone keeps its reference (comparing with `request.context` would flag every object).
  const startValues = structuredClone(request.context);
  const execution = startExecution({
    graph: deps.graph,
    config: deps.config,
    ...(deps.lookup ? { lookup: deps.lookup } : {}),
    // Under the parallel node's folder, so nested or separate parallels cannot share branch folders.
    runDir: join(
      deps.runDir,
      ...(request.parallelNodeId ? [safeSegment(request.parallelNodeId)] : []),
      'branches',
      safeSegment(request.branchId),
    ),
    registry: deps.registry,
    services: { ...parentServices, emit: branchEmit },
    input: {
      startAt: request.startNodeId,
      values: startValues,
      maxSteps: deps.maxSteps,
      branch: true,
    },
    hardAbort: abort.signal,
    ...(deps.workingDir ? { workingDir: deps.workingDir } : {}),
    onEmitted: forward(deps.emit, { branch: request.branchId }),
    ...(deps.scenario ? { scenario: deps.scenario } : {}),
  });
  const onAbort = () => execution.cancel();
  request.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const { status, context } = await execution.done;
    const updates: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(context.values)) {
      if (startValues[k] !== v && k !== 'current_node' && k !== 'outcome' && k !== 'preferred_label')
        updates[k] = v;
    }
    const outcome: Outcome =
      status === 'failed' || status === 'cancelled'
        ? { status: 'fail', failure_reason: context.failure?.reason ?? status }
        : (context.lastOutcome ?? { status: 'success' });
    return {
      branchId: request.branchId,
      startNodeId: request.startNodeId,
      outcome,
      context: context.values,
      updates,
      ...(context.stoppedAt ? { stoppedAt: context.stoppedAt } : {}),
      completedNodes: context.completedNodes,
    };
  } finally {
    request.signal.removeEventListener('abort', onAbort);
    abort.dispose();
  }
}

/** A finished child's state from its final state: only completing counts as `completed`. */
function childState(finalStatus: string): ChildPipelineStatus['state'] {
  if (finalStatus === 'completed' || finalStatus === 'branch_done') return 'completed';
  return finalStatus === 'cancelled' ? 'cancelled' : 'failed';
}

const FINAL_STATUS: Record<string, string> = {
  [CONTROL_STATES.completed]: 'completed',
  [CONTROL_STATES.branchDone]: 'branch_done',
  [CONTROL_STATES.cancelled]: 'cancelled',
};

function startChildPipeline(
  deps: ServiceDeps,
  request: Parameters<HandlerServices['startChildPipeline']>[0],
): ChildPipelineHandle {
  let source: string;
  try {
    source = readFileSync(request.dotFile, 'utf8');
  } catch {
    throw new AttractorError('CHILD_PIPELINE_NOT_FOUND', `cannot read child pipeline ${request.dotFile}.`);
  }
  const child = compile(source, { file: request.dotFile });
  const start = findStartNodes(child.graph)[0];
  if (!start)
    throw new AttractorError(
      'CHILD_PIPELINE_INVALID',
      `child pipeline ${request.dotFile} has no start node.`,
    );
  const parent = request.managerNodeId ?? 'child';
  const childDir = request.managerNodeId
    ? join(deps.runDir, safeSegment(request.managerNodeId), 'child')
    : join(deps.runDir, 'child');
  const childEmit: EmitEvent = (kind, data, nodeId) => deps.emit(kind, { ...data, parent }, nodeId);
  const { lookup: _parentLookup, ...inherited } = deps;
  const childServices = createServices({
    ...inherited,
    graph: child.graph,
    config: child.config,
    runDir: childDir,
    emit: childEmit,
  });
  const childAbort = anySignal([deps.hardAbort, request.signal]);
  const execution = startExecution({
    graph: child.graph,
    config: child.config,
    runDir: childDir,
    registry: deps.registry,
    services: childServices,
    input: { startAt: start.id, values: structuredClone(request.context), maxSteps: deps.maxSteps },
    hardAbort: childAbort.signal,
    ...(deps.workingDir ? { workingDir: deps.workingDir } : {}),
    onEmitted: forward(deps.emit, { parent }),
    ...(deps.scenario ? { scenario: deps.scenario } : {}),
  });
  request.signal.addEventListener('abort', () => execution.cancel(), { once: true });
  const status = (): ChildPipelineStatus => {
    const snap = execution.snapshot();
    const ctx = snap.context;
    return {
      // A child that ended in __failed is done too: it must not read as completed.
      state: snap.status === 'active' ? 'running' : childState(FINAL_STATUS[String(snap.value)] ?? 'failed'),
      ...(ctx.lastNode ? { currentNode: ctx.lastNode } : {}),
      completedNodes: ctx.completedNodes,
      context: ctx.values,
      ...(ctx.lastOutcome ? { outcome: ctx.lastOutcome } : {}),
    };
  };
  execution.done.then(childAbort.dispose, childAbort.dispose);
  const done = execution.done.then(({ status: s, context }) => ({
    state: childState(s),
    ...(context.stoppedAt ? { currentNode: context.stoppedAt } : {}),
    completedNodes: context.completedNodes,
    context: context.values,
    ...(context.lastOutcome ? { outcome: context.lastOutcome } : {}),
  }));
  return { status, steer: (m) => execution.steer(m), done, cancel: () => execution.cancel() };
}
