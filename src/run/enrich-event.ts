import type { EventData, EventKind, PipelineEvent } from '../shared/pipeline-event.js';

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
export function enrichEvent<K extends EventKind>(
  kind: K,
  data: EventData<K>,
  nodeId: string | undefined,
  facts: EventFacts,
): PipelineEvent {
  // Every kind's data may carry the tags; the added fields are optional fields of these kinds.
  const tags: { branch?: string; parent?: string } = data;
  const ours = !tags.branch && !tags.parent;
  let enriched: Record<string, unknown> = data;
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
  // The fields added above are optional fields of exactly these kinds' schemas.
  return {
    kind,
    ...(nodeId ? { node_id: nodeId } : {}),
    data: enriched,
    timestamp: new Date(facts.now).toISOString(),
  } as PipelineEvent;
}
