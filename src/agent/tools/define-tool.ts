import * as z from 'zod';
import type { ExecutionEnvironment } from '../environment/execution-environment.js';

/** What a tool gets besides its arguments. */
export interface ToolContext {
  /** Working directory, file operations, processes: confined and filtered. */
  env: ExecutionEnvironment;
  /** Session abort or node timeout: a tool stops its work (and its processes) when it fires. */
  signal: AbortSignal;
  callId: string;
  /** `shell` streams its output through this (TOOL_CALL_OUTPUT_DELTA). */
  onOutputDelta?: (chunk: string) => void;
  /** `shell` timeout when the model gives none: the session's or profile's default (10 000 ms). */
  defaultCommandTimeoutMs?: number;
  /** Hard ceiling on any `shell` timeout, whatever the model asks (600 000 ms). */
  maxCommandTimeoutMs?: number;
}

/** A tool's answer, untruncated: the runner truncates it for the model and keeps it whole for TOOL_CALL_END. */
export interface AgentToolResult {
  output: string;
  isError: boolean;
  /**
   * Characters the tool already dropped from the middle of `output` because it never held them in memory
   * (a shell printing gigabytes); truncation counts them in its marker.
   */
  omittedChars?: number;
}

export interface AgentTool<P = unknown> {
  name: string;
  description: string;
  /** Validated before `execute`; failures go back to the model as an error result. */
  parameters: z.ZodType<P>;
  /** What the model sees (`z.toJSONSchema` of `parameters`, root type object). */
  jsonSchema: Record<string, unknown>;
  execute(args: P, ctx: ToolContext): Promise<AgentToolResult>;
}

export interface ToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  parameters: S;
  /**
   * Earlier names of parameters, still accepted from callers that use them: old name → its name in
   * `parameters`. The model's schema shows only the new names; a call that gives both keeps the new one.
   */
  aliases?: Readonly<Record<string, keyof z.input<S> & string>>;
  execute(args: z.output<S>, ctx: ToolContext): Promise<AgentToolResult>;
}

/** `raw` with each alias renamed to its parameter's name, unless that name is given too. */
function renameAliases(raw: unknown, aliases: Readonly<Record<string, string>>): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const renamed: Record<string, unknown> = { ...raw };
  for (const [old, current] of Object.entries(aliases)) {
    if (!(old in renamed)) continue;
    if (!(current in renamed)) renamed[current] = renamed[old];
    delete renamed[old];
  }
  return renamed;
}

/**
 * Declares an agent tool from a zod object schema: the JSON schema the model sees is derived from it, so
 * the two cannot drift. Run tools through `runAgentTool`, which validates, executes and truncates.
 *
 * @example
 * const echo = defineTool({
 *   name: 'echo',
 *   description: 'Repeat the text.',
 *   parameters: z.object({ text: z.string().describe('What to repeat.') }),
 *   execute: async ({ text }) => ({ output: text, isError: false }),
 * });
 */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): AgentTool<z.output<S>> {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(spec.parameters, { io: 'input' }) as Record<
    string,
    unknown
  >;
  const { aliases } = spec;
  const parameters: z.ZodType<z.output<S>> = aliases
    ? z.preprocess((raw) => renameAliases(raw, aliases), spec.parameters)
    : (spec.parameters as unknown as z.ZodType<z.output<S>>);
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    jsonSchema: { type: 'object', ...jsonSchema },
    execute: spec.execute,
  };
}
