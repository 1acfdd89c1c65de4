import { dirname } from 'node:path';
import { gitAvailable } from '../working-tree/git-available.js';
import { openRunTree, type RunTree } from '../working-tree/run-tree.js';

/**
 * The run's working tree, opened when a node first asks for it (an isolated fan-out): a run that never
 * asks runs no git. The runs root the run directory lies in is never recorded (its sibling runs change).
 */
export function lazyRunTree(
  workDir: string,
  runDir: string,
  runId: string,
): () => Promise<RunTree | undefined> {
  let opened: Promise<RunTree | undefined> | undefined;
  return () => {
    opened ??= gitAvailable().then((available) =>
      openRunTree({ workDir, runDir, runId, exclude: [dirname(runDir)] }, available),
    );
    return opened;
  };
}
