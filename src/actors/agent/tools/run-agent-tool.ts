import type { z } from 'zod';
import { truncateOutput } from '../truncation/truncate-output.js';
import type { TruncationLimits } from '../truncation/truncation-limits.js';
import type { AgentTool, ToolContext } from './define-tool.js';

export interface RunAgentToolResult {
  /** Full output, for TOOL_CALL_END. */
  output: string;
  /** What the model sees. */
  truncated: string;
  isError: boolean;
}

/**
 * One tool call, the seeds' pipeline after the lookup: VALIDATE → EXECUTE → TRUNCATE. Invalid arguments and
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
  const parsed = tool.parameters.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const output = `Invalid arguments for tool: ${tool.name}: ${describeIssues(parsed.error)}`;
    return { output, truncated: truncateOutput(tool.name, output, truncation), isError: true };
  }
  let result: Awaited<ReturnType<AgentTool['execute']>>;
  try {
    result = await tool.execute(parsed.data, ctx);
  } catch (error) {
    const output = `Tool error (${tool.name}): ${error instanceof Error ? error.message : String(error)}`;
    return { output, truncated: truncateOutput(tool.name, output, truncation), isError: true };
  }
  return {
    output: result.output,
    truncated: truncateOutput(tool.name, result.output, truncation, result.omittedChars ?? 0),
    isError: result.isError,
  };
}

/** `path: expected string, received undefined; limit: too small` — field names the model can act on. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}
