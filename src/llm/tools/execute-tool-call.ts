import * as z from 'zod';
import type { ExecutableTool, ToolOutput } from '../executable-tool.js';
import type { Message, ToolCallPart, ToolExecutor, ToolResultPart } from '../types.js';
import { compileJsonSchema } from './json-schema-validator.js';

/**
 * Called when a call's arguments are not valid JSON or do not match the tool's schema: return repaired
 * arguments (validated again before `execute` runs) or undefined to send the validation error to the model.
 */
export type RepairToolCall = (
  call: ToolCallPart,
  context: { tool: ExecutableTool; error: string; messages: readonly Message[] },
) => Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined;

/** The generate options the tool loop reads. */
export interface ToolLoopSettings {
  tools?: ExecutableTool[];
  /** Runs calls to tools that have no `execute` of their own. */
  toolExecutor?: ToolExecutor;
  repairToolCall?: RepairToolCall;
}

type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

function parseArguments(call: ToolCallPart): Checked {
  if (call.argumentsJson.trim() === '') return { ok: true, args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.argumentsJson);
  } catch {
    return { ok: false, error: `Arguments for "${call.toolName}" are not valid JSON: ${call.argumentsJson}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: `Arguments for "${call.toolName}" must be a JSON object.` };
  }
  return { ok: true, args: parsed as Record<string, unknown> };
}

function validate(tool: ExecutableTool, args: Record<string, unknown>): Checked {
  if (tool.argumentsSchema) {
    const result = tool.argumentsSchema.safeParse(args);
    return result.success
      ? { ok: true, args: result.data }
      : { ok: false, error: `Invalid arguments for "${tool.name}":\n${z.prettifyError(result.error)}` };
  }
  const problems = compileJsonSchema(tool.parameters)(args);
  return problems.length === 0
    ? { ok: true, args }
    : { ok: false, error: `Invalid arguments for "${tool.name}": ${problems.join('; ')}.` };
}

/** Parses and validates a call's arguments, giving the repair hook one chance when that fails. */
async function checkArguments(
  call: ToolCallPart,
  tool: ExecutableTool,
  settings: ToolLoopSettings,
  messages: readonly Message[],
): Promise<Checked> {
  const parsed = parseArguments(call);
  const checked = parsed.ok ? validate(tool, parsed.args) : parsed;
  if (checked.ok || !settings.repairToolCall) return checked;
  const repaired = await settings.repairToolCall(call, { tool, error: checked.error, messages });
  return repaired === undefined ? checked : validate(tool, repaired);
}

export function findTool(settings: ToolLoopSettings, name: string): ExecutableTool | undefined {
  return settings.tools?.find((tool) => tool.name === name);
}

/**
 * Whether the loop runs this round's calls: every call is either to an unknown tool (answered with an error
 * result) or to a tool that can run. A call to a known tool nobody executes (a passive tool) ends the loop
 * and hands the calls back to the caller.
 */
export function canExecute(settings: ToolLoopSettings, calls: readonly ToolCallPart[]): boolean {
  if (calls.length === 0) return false;
  return calls.every((call) => {
    const tool = findTool(settings, call.toolName);
    return tool === undefined || tool.execute !== undefined || settings.toolExecutor !== undefined;
  });
}

function resultPart(call: ToolCallPart, output: ToolOutput, isError = false): ToolResultPart {
  const out = typeof output === 'string' ? { content: output, isError } : output;
  return {
    kind: 'tool_result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    content: out.content,
    isError: out.isError ?? isError,
    ...(out.images && out.images.length > 0 ? { images: out.images } : {}),
  };
}

/**
 * Runs one call; every failure (unknown tool, bad arguments, a throwing tool) becomes an error result the model
 * can read, never an exception. `execute` never sees arguments that failed validation.
 */
export async function executeToolCall(
  call: ToolCallPart,
  settings: ToolLoopSettings,
  messages: readonly Message[],
  signal: AbortSignal,
): Promise<ToolResultPart> {
  const tool = findTool(settings, call.toolName);
  if (!tool) return resultPart(call, `Unknown tool: ${call.toolName}`, true);
  try {
    const checked = await checkArguments(call, tool, settings, messages);
    if (!checked.ok) return resultPart(call, checked.error, true);
    const output = tool.execute
      ? await tool.execute(checked.args, { signal, toolCallId: call.toolCallId, messages })
      : await settings.toolExecutor!({ ...call, arguments: checked.args }, { signal, messages });
    return resultPart(call, output);
  } catch (error) {
    return resultPart(
      call,
      `Tool "${call.toolName}" failed: ${error instanceof Error ? error.message : String(error)}`,
      true,
    );
  }
}
