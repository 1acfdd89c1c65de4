/**
 * PROVISIONAL: the tools helper's seam (AGENT-CONTRACT.md) until src/actors/agent/tools/define-tool.ts and
 * src/actors/agent/environment/execution-environment.ts land; then this file re-exports them.
 */
import type { z } from 'zod';

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut: boolean;
}

export interface ExecutionEnvironment {
  readonly workingDirectory: string;
  readonly platform: string;
  cleanup(): Promise<void>;
  execCommand(
    command: string,
    options: { timeoutMs?: number; signal?: AbortSignal; onOutput?: (chunk: string) => void },
  ): Promise<ExecResult>;
}

export interface ToolContext {
  env: ExecutionEnvironment;
  signal: AbortSignal;
  callId: string;
  onOutputDelta?: (chunk: string) => void;
  defaultCommandTimeoutMs?: number;
  maxCommandTimeoutMs?: number;
}

export interface AgentToolResult {
  output: string;
  isError: boolean;
}

export interface AgentTool<P = unknown> {
  name: string;
  description: string;
  parameters: z.ZodType<P>;
  jsonSchema: Record<string, unknown>;
  execute(args: P, ctx: ToolContext): Promise<AgentToolResult>;
}

export interface RunAgentToolResult {
  output: string;
  truncated: string;
  isError: boolean;
}

/** PROVISIONAL runner: validation only, no truncation, until the tools helper's runner lands. */
export async function runAgentTool(
  tool: AgentTool,
  rawArgs: unknown,
  ctx: ToolContext,
): Promise<RunAgentToolResult> {
  const parsed = tool.parameters.safeParse(rawArgs);
  if (!parsed.success) {
    const output = `Invalid arguments for tool: ${tool.name}: ${parsed.error.message}`;
    return { output, truncated: output, isError: true };
  }
  const result = await tool.execute(parsed.data, ctx);
  return { output: result.output, truncated: result.output, isError: result.isError };
}
