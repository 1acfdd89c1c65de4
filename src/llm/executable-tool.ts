import type { ToolDefinition } from './types.js';

/** A tool definition that runs itself in the generate loop (an "active" tool). */
export interface ExecutableTool extends ToolDefinition {
  execute?: (
    args: Record<string, unknown>,
    context: { signal: AbortSignal; toolCallId: string },
  ) => Promise<string | { content: string; isError?: boolean }>;
}

const NAME = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

/** Builds a tool, rejecting names providers refuse and parameters whose root is not an object schema. */
export function defineLLMTool(tool: ExecutableTool): ExecutableTool {
  if (!NAME.test(tool.name) || tool.name.length > 64) {
    throw new TypeError(
      `Invalid tool name "${tool.name}": use letters, digits, _ or -, starting with a letter, at most 64.`,
    );
  }
  if (tool.parameters['type'] !== 'object') {
    throw new TypeError(`Tool "${tool.name}": parameters must be a JSON Schema with type "object".`);
  }
  return tool;
}

/** The data part of a tool, safe to send to a provider or write to a cassette. */
export function toolDefinitionOf(tool: ExecutableTool): ToolDefinition {
  const { execute: _execute, ...definition } = tool;
  return definition;
}
