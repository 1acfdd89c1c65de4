import type { CompiledMachine } from '../machines/compile-machine.js';

/** A case's pipeline, compiled as the case runs it (its goal and parameters applied). */
export interface CompiledCase {
  /** The test file, absolute: cassettes are found relative to it. */
  testFile: string;
  /** The pipeline's DOT file, absolute, and its source. */
  pipelineFile: string;
  source: string;
  compiled: CompiledMachine;
  nodeIds: ReadonlySet<string>;
}
