import type { PipelineEvent } from '../shared/pipeline-event.js';

/** What the engine knows at the edge when an event is emitted; the machine's actions stay free of clocks. */
export interface EventFacts {
  /** Milliseconds since the epoch, now. */
  now: number;
  runStartedAt: number;
  /** When the event's node started (a `node.complete` of the run's own nodes). */
  nodeStartedAt?: number;
  /** The node's model usage this visit, for its `node.complete`; undefined when it called no model. */
  nodeUsage?: () => Record<string, unknown> | undefined;
  /** The run's model usage so far, for `pipeline.finalize`. */
  runUsage?: () => Record<string, unknown>;
  /** Artifacts the run stored, for `pipeline.complete`. */
  artifactCount?: () => number;
}

/**
 * An event as it leaves the engine: the machine's kind, node and data, with what only the edge knows
 * added — a node's duration and usage, the run's duration, artifact count and usage — and a timestamp.
 * Events of parallel branches (`data.branch`) and child pipelines (`data.parent`) keep their own
 * `pipeline.*` data: those are not the run's.
 */
export function enrichEvent(
  kind: string,
  data: Record<string, unknown>,
  nodeId: string | undefined,
  facts: EventFacts,
): PipelineEvent {
  const ours = !data['branch'] && !data['parent'];
  let enriched = data;
  if (kind === 'node.complete' && ours && facts.nodeStartedAt !== undefined)
    enriched = { ...enriched, duration_ms: facts.now - facts.nodeStartedAt };
  if (ours && (kind === 'pipeline.finalize' || kind === 'pipeline.error'))
    enriched = { ...enriched, duration_ms: facts.now - facts.runStartedAt };
  if (ours && kind === 'pipeline.complete')
    enriched = {
      ...enriched,
      duration_ms: facts.now - facts.runStartedAt,
      ...(facts.artifactCount ? { artifact_count: facts.artifactCount() } : {}),
    };
  if (kind === 'node.complete' && nodeId && facts.nodeUsage) {
    const usage = facts.nodeUsage();
    if (usage) enriched = { ...enriched, usage };
  }
  if (kind === 'pipeline.finalize' && facts.runUsage) enriched = { ...enriched, usage: facts.runUsage() };
  return {
    kind,
    ...(nodeId ? { node_id: nodeId } : {}),
    data: enriched,
    timestamp: new Date(facts.now).toISOString(),
  };
}
