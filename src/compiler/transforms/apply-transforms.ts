import { definedFields } from '../../shared/defined-fields.js';
import { AttractorError } from '../../shared/errors.js';
import type { Diagnostic } from '../diagnostic.js';
import type { NamedFileReader } from '../files/read-named-file.js';
import type { PipelineGraph } from '../ir.js';
import { agentDefaultsTransform } from './agent-defaults.js';
import { goalExpansionTransform } from './goal-expansion.js';
import { promptIncludeTransform } from './prompt-include.js';
import { stylesheetTransform } from './stylesheet-transform.js';
import type { Transform, TransformContext } from './transform.js';
import { varsExpansionTransform } from './vars-expansion.js';

/**
 * Built-ins, in order. Includes come before `$goal` so a prompt loaded from a file gets its `$goal`
 * expanded too; the stylesheet comes next because it only fills attributes nothing else set, and the
 * graph's agent defaults last, below the stylesheet.
 */
export const BUILTIN_TRANSFORMS: readonly Transform[] = [
  promptIncludeTransform,
  goalExpansionTransform,
  varsExpansionTransform,
  stylesheetTransform,
  agentDefaultsTransform,
];

export interface ApplyTransformsOptions {
  goal?: string;
  vars?: Readonly<Record<string, string>>;
  /** The caller's own transforms, run after the built-ins, in order. */
  transforms?: Transform[];
  readFile?: NamedFileReader;
}

/**
 * Runs the built-in transforms, then `options.transforms`. There is no process-wide registry: what
 * shapes a compilation is in its options, so two compilations of one source with the same options agree.
 * A transform that throws is a bug in it: the error names the transform.
 *
 * @example
 * const { graph, diagnostics } = applyTransforms(parsed, { goal: 'Ship the login page' });
 */
export function applyTransforms(
  graph: PipelineGraph,
  options: ApplyTransformsOptions = {},
): { graph: PipelineGraph; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const ctx: TransformContext = {
    diagnostics,
    ...definedFields({ goal: options.goal, vars: options.vars, readFile: options.readFile }),
  };
  let current = graph;
  for (const transform of [...BUILTIN_TRANSFORMS, ...(options.transforms ?? [])]) {
    try {
      current = transform.apply(current, ctx);
    } catch (cause) {
      if (AttractorError.isInstance(cause)) throw cause;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new AttractorError('TRANSFORM_FAILED', `transform "${transform.name}" failed: ${reason}`, {
        cause,
      });
    }
  }
  return { graph: current, diagnostics };
}
