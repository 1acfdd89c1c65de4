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

const registered: Transform[] = [];

/**
 * Registers a custom transform for every later `applyTransforms` call; custom transforms run after the
 * built-ins, in registration order. Returns a function that unregisters it.
 */
export function registerTransform(transform: Transform): () => void {
  registered.push(transform);
  return () => {
    const at = registered.indexOf(transform);
    if (at >= 0) registered.splice(at, 1);
  };
}

export function registeredTransforms(): readonly Transform[] {
  return [...registered];
}

export interface ApplyTransformsOptions {
  goal?: string;
  vars?: Readonly<Record<string, string>>;
  /** Extra transforms for this call, run after the registered ones. */
  transforms?: Transform[];
  readFile?: NamedFileReader;
}

/**
 * Runs the built-in transforms, then the registered ones, then `options.transforms`.
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
    ...(options.goal !== undefined ? { goal: options.goal } : {}),
    ...(options.vars !== undefined ? { vars: options.vars } : {}),
    ...(options.readFile ? { readFile: options.readFile } : {}),
  };
  let current = graph;
  for (const transform of [...BUILTIN_TRANSFORMS, ...registered, ...(options.transforms ?? [])]) {
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
