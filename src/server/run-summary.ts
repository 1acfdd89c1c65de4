import type { PipelineEvent } from '../shared/pipeline-event.js';

/** What the run list shows of a run beyond its record: where it is, when it ran, what it cost. */
export interface RunSummary {
  /** The top-level node entered last (the node a finished run stopped at). */
  current_node?: string;
  /** The first `pipeline.start`: a resumed run keeps the time it first started. */
  started_at?: string;
  /** The last `pipeline.finalize`, cleared when a resume starts the run again. */
  ended_at?: string;
  /** The run and node it was forked from (its first `pipeline.resume` says). */
  forked_from?: { run_id: string; node: string };
  /** The run wrote a checkpoint (a resumed or forked run started from one): it can be resumed or forked. */
  checkpointed?: true;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
}

export const emptyRunSummary = (): RunSummary => ({ cost_usd: 0, input_tokens: 0, output_tokens: 0 });

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Folds one event into the summary (pure: returns a new summary). Usage counts wherever it was spent,
 * branches and child pipelines included; only top-level nodes move `current_node`.
 */
export function foldRunSummary(summary: RunSummary, event: PipelineEvent): RunSummary {
  switch (event.kind) {
    case 'pipeline.start':
    case 'pipeline.resume': {
      const { ended_at: _ended, ...rest } = summary;
      const resumed = event.kind === 'pipeline.resume' ? { checkpointed: true as const } : {};
      const origin = event.kind === 'pipeline.resume' ? event.data.forked_from : undefined;
      return {
        ...rest,
        ...resumed,
        ...(origin && !summary.forked_from ? { forked_from: origin } : {}),
        started_at: summary.started_at ?? event.timestamp,
      };
    }
    case 'checkpoint.saved':
      return event.data.branch === undefined && event.data.parent === undefined
        ? { ...summary, checkpointed: true }
        : summary;
    case 'pipeline.finalize':
      return { ...summary, ended_at: event.timestamp };
    case 'node.start': {
      const nested = event.data.branch !== undefined || event.data.parent !== undefined;
      return event.node_id && !nested ? { ...summary, current_node: event.node_id } : summary;
    }
    case 'agent.usage': {
      const { usage, cost_usd } = event.data;
      return {
        ...summary,
        cost_usd: summary.cost_usd + num(cost_usd),
        input_tokens: summary.input_tokens + num(usage?.inputTokens),
        output_tokens: summary.output_tokens + num(usage?.outputTokens),
      };
    }
    default:
      return summary;
  }
}
