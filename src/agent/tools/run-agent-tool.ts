import type { z } from 'zod';
import { truncateOutput } from '../truncation/truncate-output.js';
import type { TruncationLimits } from '../truncation/truncation-limits.js';
import type { AgentTool, AgentToolResult, ToolContext } from './define-tool.js';

export interface RunAgentToolResult {
  /** Full output, for TOOL_CALL_END. */
  output: string;
  /** What the model sees. */
  truncated: string;
  isError: boolean;
}

/**
 * One tool call, the pipeline after the lookup: VALIDATE → EXECUTE → TRUNCATE. Invalid arguments and
 * a throwing tool become error results written for the model, never exceptions, so one bad call cannot end
 * the session.
 *
 * @example
 * const { truncated, isError } = await runAgentTool(readFileTool, { path: 'a.ts' }, ctx);
 */
export async function runAgentTool(
  tool: AgentTool,
  rawArgs: unknown,
  ctx: ToolContext,
  truncation?: TruncationLimits,
): Promise<RunAgentToolResult> {
  const started = startAgentTool(tool, rawArgs, ctx, truncation);
  if (!isPending(started)) return started;
  let answer: AgentToolResult;
  try {
    answer = await started;
  } catch (error) {
    return agentToolError(tool, error, truncation);
  }
  return finishAgentTool(tool, answer, truncation);
}

/**
 * `runAgentTool` in two steps, for a caller that awaits the tool itself (the agent loop, once per round):
 * validates and starts the tool, and returns the result at once when there is nothing to wait for (invalid
 * arguments, a tool that threw or answered synchronously), else the tool's own pending answer, to be handed to
 * `finishAgentTool` (or, when it rejects, to `agentToolError`). No promise of its own: `await runAgentTool`
 * costs three jobs (the tool's promise, the async wrapper, the caller's await), this one.
 */
export function startAgentTool(
  tool: AgentTool,
  rawArgs: unknown,
  ctx: ToolContext,
  truncation?: TruncationLimits,
): RunAgentToolResult | PromiseLike<AgentToolResult> {
  const parsed = tool.parameters.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const output = `Invalid arguments for tool: ${tool.name}: ${describeIssues(parsed.error)}`;
    return { output, truncated: truncateOutput(tool.name, output, truncation), isError: true };
  }
  let answer: AgentToolResult | PromiseLike<AgentToolResult>;
  try {
    answer = tool.execute(parsed.data, ctx);
  } catch (error) {
    return agentToolError(tool, error, truncation);
  }
  // A tool written in plain JavaScript may answer without a promise.
  return isPending(answer) ? answer : finishAgentTool(tool, answer, truncation);
}

/**
 * The tool's answer as the caller reports it: whole for TOOL_CALL_END, truncated for the model. An answer
 * that is not a result (a JavaScript tool resolving to nothing) is the tool's error, not the caller's.
 */
export function finishAgentTool(
  tool: AgentTool,
  result: AgentToolResult,
  truncation?: TruncationLimits,
): RunAgentToolResult {
  try {
    return {
      output: result.output,
      truncated: truncateOutput(tool.name, result.output, truncation, result.omittedChars ?? 0),
      isError: result.isError,
    };
  } catch (error) {
    return agentToolError(tool, error, truncation);
  }
}

/** A tool that threw (or rejected), as the error result the model reads. */
export function agentToolError(
  tool: AgentTool,
  error: unknown,
  truncation?: TruncationLimits,
): RunAgentToolResult {
  const output = `Tool error (${tool.name}): ${error instanceof Error ? error.message : String(error)}`;
  return { output, truncated: truncateOutput(tool.name, output, truncation), isError: true };
}

/** Whether `startAgentTool` (or a tool) handed back something to wait for rather than a result. */
export function isPending<T>(value: T): value is Extract<T, PromiseLike<unknown>> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** `path: expected string, received undefined; limit: too small` — field names the model can act on. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}
