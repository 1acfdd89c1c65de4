import type { ArtifactStore } from '../shared/artifact-store.js';
import type { EmitEvent, EventKind, PipelineEvent } from '../shared/pipeline-event.js';
import type { RunTracer } from '../telemetry/run-tracer.js';
import { type EventFacts, enrichEvent } from './enrich-event.js';
import type { LateFailure } from './late-failure.js';
import type { RunRecorder } from './run-recorder.js';
import type { RunAccounting } from './run-services.js';

/** The events that say the run is over (or stopped): every node's record is on disk when they are heard. */
const TERMINAL_EVENTS = new Set<EventKind>([
  'pipeline.complete',
  'pipeline.error',
  'pipeline.paused',
  'pipeline.cancelled',
]);

/** Where a run's events go: enriched, recorded, then handed to its listener. */
export interface RunEmitter {
  emit: EmitEvent;
  /** Set once the run has ended: settles when every event has reached `onEvent`. */
  delivered(): Promise<void> | undefined;
}

export interface RunEmitterOptions {
  recorder: RunRecorder;
  failure: LateFailure;
  /** Nodes run by a built-in routing handler: they do nothing a reader of checkpoint.json must see them doing. */
  routingNodes: ReadonlySet<string>;
  artifacts: ArtifactStore;
  accounting: RunAccounting | undefined;
  onEvent: ((event: PipelineEvent) => void) | undefined;
  /** The run's trace, fed every event after it is recorded; none: not traced. */
  tracer: RunTracer | undefined;
}

/**
 * The run's one emitter: the machine's events and its handlers' (branches' and child pipelines' are
 * tagged, and are not the run's own steps) are enriched (durations, usage, time), written to the event
 * log, and handed to `onEvent`; a node that does work starts with checkpoint.json naming it, and the
 * run's end is heard once every record is on disk (docs/decisions/0470-a-runs-records-go-through-one-write-lane.md).
 */
export function createRunEmitter(run: RunEmitterOptions): RunEmitter {
  const { recorder, failure, onEvent } = run;
  const runStartedAt = Date.now();
  const nodeStartedAt = new Map<string, number>();
  let delivering: Promise<void> | undefined;
  const emit: EmitEvent = (kind, data, nodeId) => {
    const tags: { branch?: string; parent?: string } = data;
    const ours = !tags.branch && !tags.parent;
    const ending = TERMINAL_EVENTS.has(kind) && ours;
    if (kind === 'node.start' && ours && nodeId && !run.routingNodes.has(nodeId))
      failure.guard('writing the checkpoint', () => recorder.beforeWork());
    if (ending) failure.guard('writing the stage folders', () => recorder.beforeEnd());
    const now = Date.now();
    const started = ours && nodeId ? nodeTiming(nodeStartedAt, kind, nodeId, now) : undefined;
    const event = enrichEvent(kind, data, nodeId, {
      now,
      runStartedAt,
      nodeStartedAt: started,
      ...usageOf(run.accounting, nodeId),
      artifactCount: () => run.artifacts.list().length,
    });
    failure.guard('writing the event log', () => recorder.event(event));
    if (run.tracer) traceEvent(run.tracer, event);
    // Whoever hears the run end finds every record on disk: from the end on, callbacks wait for them.
    if (ending) delivering ??= recorder.recorded().catch(() => {});
    if (!onEvent) return;
    if (delivering)
      delivering = delivering.then(() => void failure.guard('the onEvent callback', () => onEvent(event)));
    else failure.guard('the onEvent callback', () => onEvent(event));
  };
  return { emit, delivered: () => delivering };
}

/** When the node of a `node.complete` started (a `node.start` is remembered until then). */
function nodeTiming(
  startedAt: Map<string, number>,
  kind: EventKind,
  nodeId: string,
  now: number,
): number | undefined {
  if (kind === 'node.start') startedAt.set(nodeId, now);
  if (kind !== 'node.complete') return undefined;
  const started = startedAt.get(nodeId);
  startedAt.delete(nodeId);
  return started;
}

function usageOf(
  accounting: RunAccounting | undefined,
  nodeId: string | undefined,
): Pick<EventFacts, 'nodeUsage' | 'runUsage'> {
  if (!accounting) return {};
  const runUsage = () => accounting.runTotals();
  return nodeId ? { nodeUsage: () => accounting.nodeTotals(nodeId), runUsage } : { runUsage };
}

/** Tracing is the user's instrument, never the run's risk: a tracer that throws is left out of it. */
function traceEvent(tracer: RunTracer, event: PipelineEvent): void {
  try {
    tracer.record(event);
  } catch {
    // The span tree misses this event; the run and its records do not.
  }
}
