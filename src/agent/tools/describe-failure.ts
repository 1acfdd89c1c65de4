import { AttractorError } from '../../shared/errors.js';
import type { AgentToolResult } from './define-tool.js';

/** Environment errors whose message is already written for the model (`Error: …`). */
const EXPECTED_CODES: ReadonlySet<string> = new Set([
  'agent.file_not_found',
  'agent.path_outside_workdir',
  'agent.not_a_directory',
  'agent.is_a_directory',
]);

/**
 * The expected failures of the environment (a missing file, a path outside the working directory) as error
 * results for the model; anything else is rethrown, and the runner reports it as `Tool error (name): …`.
 */
export function describeFailure(error: unknown): AgentToolResult {
  if (AttractorError.isInstance(error) && EXPECTED_CODES.has(error.code)) {
    return { output: error.message, isError: true };
  }
  throw error;
}

export const failure = (output: string): AgentToolResult => ({ output, isError: true });
export const success = (output: string): AgentToolResult => ({ output, isError: false });
