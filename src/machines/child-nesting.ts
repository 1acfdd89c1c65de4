import type { PipelineGraph } from '../compiler/ir.js';
import { AttractorError } from '../shared/errors.js';

/** How deep child pipelines may nest under a pipeline that does not say (`stack.max_depth`). */
export const DEFAULT_MAX_CHILD_DEPTH = 8;

/** The levels of child pipelines a graph allows under itself: its `stack.max_depth`, else the default. */
export function childLevelsUnder(graph: PipelineGraph): number {
  return graph.attrs['stack.max_depth'] ?? DEFAULT_MAX_CHILD_DEPTH;
}

/**
 * Thrown (and so failing the manager loop's node) when a manager would start a child pipeline deeper
 * than `stack.max_depth` allows: a pipeline that names itself as its child would otherwise nest
 * without end, each level a longer run directory, until the file system refuses the path.
 */
export class ChildDepthExceededError extends AttractorError {
  constructor(managerNodeId: string) {
    super(
      'CHILD_DEPTH_EXCEEDED',
      `manager loop ${managerNodeId} cannot start its child pipeline: child pipelines may nest only as deep as stack.max_depth allows (default ${DEFAULT_MAX_CHILD_DEPTH}), and this one would go deeper. A child pipeline that names its own file (or an ancestor's) as stack.child_dotfile nests without end; set stack.max_depth on the graph to allow more levels.`,
    );
  }
}
