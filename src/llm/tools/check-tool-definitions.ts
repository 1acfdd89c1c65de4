import { InvalidRequestError } from '../errors/invalid-request-error.js';
import type { ToolDefinition } from '../types.js';
import { compileJsonSchema } from './json-schema-validator.js';
import { toolNameProblem } from './tool-name.js';

/**
 * Rejects, before any model call, tools the spec forbids: a bad name, a duplicate name, or parameters that are not
 * a compilable JSON Schema with root `type: "object"`. These are programming errors, so they throw.
 */
export function checkToolDefinitions(tools: readonly ToolDefinition[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    const problem = toolNameProblem(tool.name);
    if (problem) throw new InvalidRequestError(problem);
    if (seen.has(tool.name)) throw new InvalidRequestError(`Tool "${tool.name}" is defined twice.`);
    seen.add(tool.name);
    if (tool.parameters['type'] !== 'object') {
      throw new InvalidRequestError(
        `Tool "${tool.name}": parameters must be a JSON Schema with type "object".`,
      );
    }
    try {
      compileJsonSchema(tool.parameters);
    } catch (error) {
      throw new InvalidRequestError(
        `Tool "${tool.name}": parameters is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
}
