import { InvalidRequestError } from '../errors/invalid-request-error.js';
import type { ToolDefinition } from '../types.js';
import { compileJsonSchema } from './json-schema-validator.js';
import { toolNameProblem } from './tool-name.js';

/**
 * Rejects, before any model call, tools some provider would refuse: a bad name, a duplicate name, or parameters that are not
 * a compilable JSON Schema with root `type: "object"`. These are programming errors, so they throw.
 */
export function checkToolDefinitions(tools: readonly ToolDefinition[]): void {
  if (passedBefore(tools)) return;
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
  passed.set(
    tools,
    tools.map((tool) => ({ tool, name: tool.name, parameters: tool.parameters })),
  );
}

/**
 * Tool lists that passed, with what was checked: an agent sends the same list with every request, and its
 * names and schemas are what the check reads, so the same list with the same names and schema objects
 * passes again without the work (compiled schemas are cached per object already, see compileJsonSchema).
 */
const passed = new WeakMap<
  readonly ToolDefinition[],
  Array<{ tool: ToolDefinition; name: string; parameters: Record<string, unknown> }>
>();

function passedBefore(tools: readonly ToolDefinition[]): boolean {
  const checked = passed.get(tools);
  if (checked === undefined || checked.length !== tools.length) return false;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    const then = checked[i]!;
    if (tool !== then.tool || tool.name !== then.name || tool.parameters !== then.parameters) return false;
    if (tool.parameters['type'] !== 'object') return false;
  }
  return true;
}
