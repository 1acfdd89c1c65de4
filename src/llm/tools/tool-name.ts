/** The tool name every provider accepts (docs/decisions/0032-llm-tool-names-and-retryable-errors.md): a letter, then letters, digits or underscores; at most 64 characters. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]*$/;
export const TOOL_NAME_MAX_LENGTH = 64;

/** Why `name` is not a valid tool name, or undefined when it is. */
export function toolNameProblem(name: string): string | undefined {
  if (TOOL_NAME_PATTERN.test(name) && name.length <= TOOL_NAME_MAX_LENGTH) return undefined;
  return `Invalid tool name "${name}": use letters, digits and _, starting with a letter, at most ${TOOL_NAME_MAX_LENGTH} characters.`;
}
