import { relative, sep } from 'node:path';

/**
 * What the agent is told about reporting its outcome: the stage's `status.json` path (relative to the working
 * directory, since its tools are confined there) and the schema. Without a path it can reach, it is told
 * its final answer decides.
 */
export function stageInstructions(stageDir: string, workingDirectory: string): string {
  const rel = relative(workingDirectory, stageDir);
  const reachable = rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
  const lines = [
    'You are one stage of an Attractor pipeline. Do the task in the user message in the working directory, then answer with a short summary of what you did.',
  ];
  if (reachable) {
    lines.push(
      `To report an outcome other than plain success (a failure, or a label that chooses the next stage), write the JSON file ${rel.split(sep).join('/')}/status.json: {"outcome": "success" | "partial_success" | "retry" | "fail", "preferred_label": "<edge label>", "notes": "<one line>", "failure_reason": "<why, when failing>", "context_updates": {"<key>": "<value>"}}. Only "outcome" is required. Without that file, finishing normally counts as success.`,
    );
  }
  return lines.join('\n');
}
