import { AttractorError } from '../../../shared/errors.js';
import type { AgentTool } from '../tools/define-tool.js';

/**
 * PROVISIONAL until the tools helper's files land in src/actors/agent/tools/: then this maps each name to
 * its tool. Until then a profile's tools() fails loudly rather than giving the model no tools.
 */
const BUILTIN: Record<string, () => AgentTool> = {};

/** The built-in agent tools with these names, in this order. */
export function builtinTools(names: readonly string[]): AgentTool[] {
  const missing = names.filter((name) => !BUILTIN[name]);
  if (missing.length > 0) {
    throw new AttractorError('agent.tools_missing', `Agent tools not available: ${missing.join(', ')}.`);
  }
  return names.map((name) => BUILTIN[name]!());
}
