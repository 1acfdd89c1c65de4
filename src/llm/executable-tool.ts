import * as z from 'zod';
import { compileJsonSchema } from './tools/json-schema-validator.js';
import { toolNameProblem } from './tools/tool-name.js';
import type { ImagePart, Message, ToolDefinition } from './types.js';

/** What a tool returns: text, or text with an error flag and images (screenshots, rendered charts). */
export type ToolOutput = string | { content: string; isError?: boolean; images?: ImagePart[] };

/** Handed to `execute` beside the validated arguments. */
export interface ToolExecuteContext {
  signal: AbortSignal;
  toolCallId: string;
  /** The conversation so far, ending with the assistant message that made this call. */
  messages: readonly Message[];
}

/** A tool definition that runs itself in the generate loop (an "active" tool). */
export interface ExecutableTool extends ToolDefinition {
  execute?: (args: Record<string, unknown>, context: ToolExecuteContext) => Promise<ToolOutput>;
  /**
   * Set by defineLLMTool when the parameters were given as a zod schema: the arguments are then validated and
   * parsed by it (defaults and transforms applied) instead of by the JSON Schema in `parameters`.
   */
  argumentsSchema?: z.ZodType<Record<string, unknown>>;
}

export type LLMToolSpec = Omit<ExecutableTool, 'parameters' | 'argumentsSchema'> & {
  /** A JSON Schema with root `type: "object"`, or a zod object schema. */
  parameters: Record<string, unknown> | z.ZodType<Record<string, unknown>>;
};

function isZod(value: unknown): value is z.ZodType<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * Builds a tool, rejecting names some provider would refuse, parameters whose root is not an object schema and JSON
 * Schemas the validator cannot compile, so a bad tool fails where it is written rather than mid-conversation.
 *
 * @example
 * const weather = defineLLMTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: async ({ city }) => `sunny in ${String(city)}`,
 * });
 */
export function defineLLMTool(spec: LLMToolSpec): ExecutableTool {
  const problem = toolNameProblem(spec.name);
  if (problem) throw new TypeError(problem);
  const tool: ExecutableTool = isZod(spec.parameters)
    ? {
        ...spec,
        parameters: jsonSchemaOf(spec.parameters),
        argumentsSchema: spec.parameters,
      }
    : { ...spec, parameters: spec.parameters };
  if (tool.parameters['type'] !== 'object') {
    throw new TypeError(`Tool "${tool.name}": parameters must be a JSON Schema with type "object".`);
  }
  try {
    compileJsonSchema(tool.parameters);
  } catch (error) {
    throw new TypeError(
      `Tool "${tool.name}": parameters is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return tool;
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<
    string,
    unknown
  >;
  return json;
}

/** The data part of a tool, safe to send to a provider or write to a cassette. */
export function toolDefinitionOf(tool: ExecutableTool): ToolDefinition {
  const { execute: _execute, argumentsSchema: _schema, ...definition } = tool;
  return definition;
}
