import type { StageStatus } from '../../compiler/outcome.js';
import type { HandlerHook } from '../handler-hook.js';
import type { PipelineContext } from '../pipeline-context.js';

export interface NodeTiming {
  node: string;
  status: StageStatus;
  durationMs: number;
}

export interface TimingHookOptions {
  /** Called after every handler with its duration. */
  onTiming?: (timing: NodeTiming) => void;
  /** Clock in milliseconds (default `performance.now`). */
  now?: () => number;
}

/**
 * A built-in example of a handler hook: it times every handler invocation and appends one entry per
 * node to the run's log (`context.appendLog`, so the checkpoint's `logs` keep it across a resume).
 *
 * @example
 * const registry = createDefaultRegistry().addHook(
 *   createTimingHook({ onTiming: (t) => console.log(`${t.node}: ${t.durationMs} ms`) }),
 * );
 * await runPipeline({ source, registry, backend });
 */
export function createTimingHook(options: TimingHookOptions = {}): HandlerHook {
  const now = options.now ?? (() => performance.now());
  // Keyed by the invocation's context object: branches run concurrently through the same hook.
  const started = new WeakMap<PipelineContext, number>();
  return {
    name: 'timing',
    beforeExecute(_node, context) {
      started.set(context, now());
    },
    afterExecute(node, context, outcome) {
      const began = started.get(context);
      if (began === undefined) return;
      started.delete(context);
      const durationMs = Math.round(now() - began);
      context.appendLog({
        message: `${node.id} took ${durationMs} ms (${outcome.status})`,
        kind: 'timing',
        duration_ms: durationMs,
        status: outcome.status,
      });
      options.onTiming?.({ node: node.id, status: outcome.status, durationMs });
    },
  };
}
