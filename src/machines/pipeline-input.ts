import { findStartNodes } from '../compiler/validate/graph-index.js';
import { AttractorError } from '../shared/errors.js';
import type { CompiledMachine } from './compile-machine.js';
import type { PipelineMachineInput } from './machine-context.js';

/** Node visits a run may make before it fails (`--max-steps`). */
export const DEFAULT_MAX_STEPS = 1000;

/**
 * The input that starts a compiled pipeline at its start node, with the context every run begins
 * with (`pipeline.name`, `pipeline.goal`, `graph.goal`, `goal`).
 *
 * @example
 * const actor = createActor(providePipeline(compiled, services), {
 *   input: pipelineInput(compiled, { runDir: '/tmp/my-run' }),
 * });
 */
export function pipelineInput(
  compiled: Pick<CompiledMachine, 'graph'>,
  options: { runDir: string; maxSteps?: number; values?: Record<string, unknown> },
): PipelineMachineInput {
  const { graph } = compiled;
  const start = findStartNodes(graph)[0];
  if (!start) throw new AttractorError('NO_START_NODE', 'the pipeline has no start node.');
  const goal = graph.attrs.goal ?? '';
  return {
    startAt: start.id,
    runDir: options.runDir,
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    values: {
      'pipeline.name': graph.name,
      'pipeline.goal': goal,
      'graph.goal': goal,
      ...(goal ? { goal } : {}),
      ...options.values,
    },
  };
}
