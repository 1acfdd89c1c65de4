import type { Diagnostic } from '../diagnostic.js';
import type { PipelineGraph } from '../ir.js';

export interface TransformContext {
  /** The `--goal` flag: overrides the graph's `goal`. */
  goal?: string;
  /** Pipeline parameter values (`--set`); given for a run, so declared parameters without one are errors. */
  vars?: Readonly<Record<string, string>>;
  /** Transforms push warnings here instead of throwing (expected problems are returned). */
  diagnostics: Diagnostic[];
  /** Reads a file (absolute path) as UTF-8; defaults to the file system. Injected in tests. */
  readFile?: (absPath: string) => string;
}

/**
 * A pass between parse and validate (concepts §14). It returns a new graph and must not modify the one
 * it is given, so callers can keep the parsed graph for comparison.
 */
export interface Transform {
  name: string;
  apply(graph: PipelineGraph, ctx: TransformContext): PipelineGraph;
}
