import type { CodergenRequest } from '../codergen-backend.js';

/**
 * The text sent as an agent's `session/prompt`: the run so far (the fidelity summary, the same one the
 * built-in backend gets) unless the session already holds it, then the node's prompt, then where the
 * stage's `status.json` goes, so an agent can decide the outcome itself (the status-file contract).
 */
export function composeAgentPrompt(
  request: Pick<CodergenRequest, 'prompt' | 'contextSummary' | 'stageDir'>,
  options: { withSummary: boolean },
): string {
  const parts: string[] = [];
  const summary = request.contextSummary.trim();
  if (options.withSummary && summary !== '') parts.push(summary);
  parts.push(request.prompt);
  parts.push(
    `(Stage directory: ${request.stageDir}. To set this stage's outcome yourself, write ${request.stageDir}/status.json ` +
      'as {"outcome": "success" | "partial_success" | "retry" | "fail", "notes": "..."}.)',
  );
  return parts.join('\n\n');
}
