import type { PipelineNode } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
import { definedFields } from '../shared/defined-fields.js';
import type { HandlerHook } from './handler-hook.js';
import type { PipelineContext } from './pipeline-context.js';

/**
 * Run `execute` inside the hooks, like nested middleware: before-hooks in order; the handler only when
 * all of them passed; then the after-hooks of every hook whose before-hook ran, in reverse, each seeing
 * the outcome as it stands (a timing hook always closes what it opened). A throwing hook gives FAIL
 * with its message; later after-hooks still run and see that FAIL.
 */
export async function runWithHooks(
  hooks: readonly HandlerHook[],
  node: PipelineNode,
  context: PipelineContext,
  execute: () => Promise<Outcome>,
): Promise<Outcome> {
  if (hooks.length === 0) return execute();
  let entered = 0;
  let outcome: Outcome | undefined;
  for (const hook of hooks) {
    try {
      await hook.beforeExecute?.(node, context);
    } catch (error) {
      outcome = hookFailure(hook, 'beforeExecute', error);
      break;
    }
    entered++;
  }
  outcome ??= await execute();
  for (let i = entered - 1; i >= 0; i--) {
    const hook = hooks[i];
    try {
      await hook?.afterExecute?.(node, context, outcome);
    } catch (error) {
      // The handler's work happened: its context updates stay, its routing hints do not.
      outcome = {
        ...hookFailure(hook, 'afterExecute', error),
        ...definedFields({ context_updates: outcome.context_updates }),
      };
    }
  }
  return outcome;
}

function hookFailure(hook: HandlerHook | undefined, phase: string, error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  const who = hook?.name ? `hook "${hook.name}" ${phase}` : `${phase} hook`;
  return { status: 'fail', failure_reason: `${who} failed: ${message}` };
}
