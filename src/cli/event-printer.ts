import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { CliContext } from './cli-context.js';
import { formatEventLine } from './format-event-line.js';

/** Prints a run's events and remembers what the final summary needs. */
export interface EventPrinter {
  print: (event: PipelineEvent) => void;
  /** Top-level nodes that were retried in this process, in first-retry order. */
  retried: () => string[];
  /** True when this failure reason was already printed (so the summary need not repeat it). */
  shown: (reason: string) => boolean;
  /** The models the run's agents called, in first-call order (for the cost line). */
  models: () => string[];
}

/** `--json`: every event as one line; plain: one line per event, each failure reason printed once. */
export function createEventPrinter(json: boolean, ctx: CliContext): EventPrinter {
  const retried = new Set<string>();
  const shownReasons = new Set<string>();
  const models = new Set<string>();
  let heldError: { node: string; error: string; line: string } | undefined;
  const observe = (e: PipelineEvent): void => {
    if (e.kind === 'agent.usage' && e.data.model !== undefined) models.add(e.data.model);
    if (e.kind === 'node.retry' && e.node_id && !e.data.branch && !e.data.parent) retried.add(e.node_id);
  };
  const print = json
    ? (e: PipelineEvent) => {
        observe(e);
        ctx.io.stdout(`${JSON.stringify(e)}\n`);
      }
    : (e: PipelineEvent) => {
        observe(e);
        // An agent error that ends its node is said by the node's failure line: printed only when
        // something else follows it (the agent went on), never twice.
        const held = heldError;
        heldError = undefined;
        if (
          held &&
          !(
            e.kind === 'node.complete' &&
            e.node_id === held.node &&
            (e.data.failure_reason ?? '').includes(held.error)
          )
        )
          ctx.io.stdout(`${held.line}\n`);
        // The failing node's line already gave the reason: the run's error line would only repeat it.
        if (e.kind === 'pipeline.error' && shownReasons.has(e.data.error)) return;
        const line = formatEventLine(e, ctx.colors, ctx.io.cwd);
        if (line === undefined) return;
        if (e.kind === 'agent.error' && e.node_id) {
          heldError = { node: e.node_id, error: e.data.error, line };
          return;
        }
        ctx.io.stdout(`${line}\n`);
        const reason =
          e.kind === 'node.complete'
            ? e.data.failure_reason
            : e.kind === 'pipeline.error'
              ? e.data.error
              : undefined;
        if (reason !== undefined) shownReasons.add(reason);
      };
  return {
    print,
    retried: () => [...retried],
    shown: (reason) => shownReasons.has(reason),
    models: () => [...models],
  };
}
