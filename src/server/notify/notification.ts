import * as z from 'zod';
import type { PipelineEvent } from '../../shared/pipeline-event.js';

/** What a webhook says happened: a gate waits, a gate was answered, a run ended. */
export const NotificationSchema = z.strictObject({
  /** Stable per happening: a receiver that gets one twice (a retry after a lost reply) can tell. */
  id: z.string(),
  kind: z.enum(['gate.waiting', 'gate.answered', 'run.finished']),
  run_id: z.string(),
  pipeline: z.string(),
  /** ISO-8601 time it happened. */
  at: z.string(),
  /** The run page, at the gate for a gate's notification. */
  link: z.string(),
  node: z.string().optional(),
  question: z.string().optional(),
  options: z.array(z.strictObject({ key: z.string(), label: z.string() })).optional(),
  /** The chosen option's label (or the free text), for `gate.answered`. */
  answer: z.string().optional(),
  /** Who answered (decision 0410). */
  answered_by: z.string().optional(),
  status: z.string().optional(),
  quality: z.string().optional(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export interface NotifiedRun {
  id: string;
  pipeline: string;
}

/** The web view's run page for a run (and a node of it): the page routes by the fragment. */
export function runLink(base: string, runId: string, node?: string): string {
  const page = `${base.replace(/\/+$/, '')}/#/runs/${encodeURIComponent(runId)}`;
  return node === undefined ? page : `${page}?node=${encodeURIComponent(node)}`;
}

/**
 * The notification an event of a run makes, if any: `interview.start` (a gate waits), `interview.complete`
 * (it was answered; a timeout's default answer too), `pipeline.finalize` (the run ended — paused runs
 * have not). Events of parallel branches and child pipelines make none of their own run's kind.
 */
export function notificationFor(
  run: NotifiedRun,
  event: PipelineEvent,
  linkBase: string,
): Notification | undefined {
  const base = { run_id: run.id, pipeline: run.pipeline, at: event.timestamp };
  const node = event.node_id;
  switch (event.kind) {
    case 'interview.start':
      if (node === undefined) return undefined;
      return {
        ...base,
        id: `${run.id}:gate.waiting:${node}:${event.timestamp}`,
        kind: 'gate.waiting',
        link: runLink(linkBase, run.id, node),
        node,
        question: event.data.question,
        options: event.data.options.map(({ key, label }) => ({ key, label })),
      };
    case 'interview.complete': {
      if (node === undefined) return undefined;
      const answer =
        event.data.text ?? event.data.label ?? event.data.key ?? (event.data.skipped ? 'skipped' : undefined);
      return {
        ...base,
        id: `${run.id}:gate.answered:${node}:${event.timestamp}`,
        kind: 'gate.answered',
        link: runLink(linkBase, run.id, node),
        node,
        ...(answer === undefined ? {} : { answer }),
        ...(event.data.answered_by === undefined ? {} : { answered_by: event.data.answered_by }),
      };
    }
    case 'pipeline.finalize': {
      const tags: { branch?: string; parent?: string } = event.data;
      if (tags.branch !== undefined || tags.parent !== undefined || event.data.status === 'paused')
        return undefined;
      return {
        ...base,
        id: `${run.id}:run.finished:${event.timestamp}`,
        kind: 'run.finished',
        link: runLink(linkBase, run.id),
        status: event.data.status,
        quality: event.data.quality,
      };
    }
    default:
      return undefined;
  }
}
