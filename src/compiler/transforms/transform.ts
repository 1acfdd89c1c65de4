import type { Diagnostic } from '../diagnostic.js';
import type { NamedFileReader } from '../files/read-named-file.js';
import type { PipelineGraph } from '../ir.js';

export interface TransformContext {
  /** The `--goal` flag: overrides the graph's `goal`. */
  goal?: string;
  /** Pipeline parameter values (`--set`); given for a run, so declared parameters without one are errors. */
  vars?: Readonly<Record<string, string>>;
  /** Transforms push warnings here instead of throwing (expected problems are returned). */
  diagnostics: Diagnostic[];
  /** Reads a named file inside the graph's read scope; defaults to the disk (`readFromDisk`). Injected in tests. */
  readFile?: NamedFileReader;
}

/**
 * A pass between parse and validate. It returns a new graph and must not modify the one
 * it is given, so callers can keep the parsed graph for comparison.
 */
export interface Transform {
  name: string;
  apply(graph: PipelineGraph, ctx: TransformContext): PipelineGraph;
}
