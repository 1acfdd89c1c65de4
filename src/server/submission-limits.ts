import { DotLimitError, parseDot } from '../compiler/parse/index.js';
import { ApiError } from './api-error.js';

/**
 * The most nodes and edges a submitted pipeline may have. A pipeline written by hand has tens of
 * nodes; a generated one a few hundred. Compiling, checking and drawing take time in proportion (30,000
 * nodes held the server ~9 s), so a server refuses what no real pipeline needs before it compiles it.
 */
export const SUBMISSION_LIMITS = Object.freeze({ maxNodes: 1_000, maxEdges: 5_000 });

/**
 * Refuses (413, `PIPELINE_TOO_LARGE`, naming the limit) a submitted source past
 * {@link SUBMISSION_LIMITS}. The parser stops as soon as a count passes its limit, so the check costs
 * little for a large pipeline and one fast parse for any other; what else is wrong with the source is
 * reported by the submission itself.
 */
export function checkSubmissionSize(source: string): void {
  try {
    parseDot(source, { limits: SUBMISSION_LIMITS });
  } catch (error) {
    if (!(error instanceof DotLimitError) || !(error.limit in SUBMISSION_LIMITS)) return;
    const noun = error.limit === 'maxNodes' ? 'nodes' : 'edges';
    throw new ApiError(
      413,
      'PIPELINE_TOO_LARGE',
      `the pipeline has more than ${error.max} ${noun}, the most a server runs (limit ${error.limit}=${error.max}); split it into child pipelines (stack.child_dotfile) or run it with the CLI.`,
      { limit: error.limit, max: error.max },
    );
  }
}
