import type { RequestOptions } from './client.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';
import { type ExecutableTool, toolDefinitionOf } from './executable-tool.js';
import { Message as Msg } from './message.js';
import type {
  GenerateResult,
  Message,
  Request,
  Response,
  StepResult,
  ToolCallPart,
  ToolExecutor,
  ToolResultPart,
} from './types.js';
import { addUsage } from './usage.js';

/** What generate needs from the client (kept narrow so the loop is testable and free of import cycles). */
export interface Completer {
  complete(request: Request, options?: RequestOptions): Promise<Response>;
}

export type GenerateOptions = Omit<Request, 'messages' | 'tools'> & {
  /** Either a prompt (becomes one user message) or messages, not both. */
  prompt?: string;
  messages?: Message[];
  tools?: ExecutableTool[];
  /** Runs calls to tools that have no `execute` of their own. */
  toolExecutor?: ToolExecutor;
  /** Rounds of tool execution; at most maxToolRounds + 1 model calls. 0 disables execution. Default 10. */
  maxToolRounds?: number;
  /** Per model call. */
  timeoutMs?: number;
  abortSignal?: AbortSignal;
  /** Stops the loop early after a step when it returns true. */
  stopWhen?: (steps: readonly StepResult[]) => boolean;
};

export const DEFAULT_MAX_TOOL_ROUNDS = 10;

export function initialMessages(options: GenerateOptions): Message[] {
  if (options.prompt !== undefined && options.messages !== undefined) {
    throw new InvalidRequestError('generate: pass either `prompt` or `messages`, not both.');
  }
  if (options.messages !== undefined) return [...options.messages];
  if (options.prompt !== undefined) return [Msg.user(options.prompt)];
  throw new InvalidRequestError('generate: pass `prompt` or `messages`.');
}

/** The Request fields of generate options (the loop-only fields removed). */
export function baseRequest(options: GenerateOptions): Omit<Request, 'messages'> {
  const {
    prompt: _p,
    messages: _m,
    tools,
    toolExecutor: _te,
    maxToolRounds: _mr,
    timeoutMs: _t,
    abortSignal: _a,
    stopWhen: _s,
    ...request
  } = options;
  return { ...request, ...(tools && tools.length > 0 ? { tools: tools.map(toolDefinitionOf) } : {}) };
}

export function canExecute(options: GenerateOptions, calls: readonly ToolCallPart[]): boolean {
  if (calls.length === 0) return false;
  if (options.toolExecutor) return true;
  return calls.every((call) => options.tools?.some((tool) => tool.name === call.toolName && tool.execute));
}

function missingRequired(tool: ExecutableTool, args: Record<string, unknown>): string[] {
  const required = tool.parameters['required'];
  return Array.isArray(required)
    ? required.filter((key): key is string => typeof key === 'string' && !(key in args))
    : [];
}

/** Runs one call; every failure becomes an error result the model can read, never an exception. */
export async function executeToolCall(
  call: ToolCallPart,
  options: GenerateOptions,
  messages: readonly Message[],
  signal: AbortSignal,
): Promise<ToolResultPart> {
  const result = (content: string, isError: boolean): ToolResultPart => ({
    kind: 'tool_result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    content,
    isError,
  });
  const tool = options.tools?.find((candidate) => candidate.name === call.toolName);
  if (!tool) return result(`Unknown tool "${call.toolName}".`, true);
  if (call.argumentsJson.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(call.argumentsJson);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return result(`Arguments for "${call.toolName}" must be a JSON object.`, true);
      }
    } catch {
      return result(`Arguments for "${call.toolName}" are not valid JSON: ${call.argumentsJson}`, true);
    }
  }
  const missing = missingRequired(tool, call.arguments);
  if (missing.length > 0)
    return result(`Missing required argument(s) for "${call.toolName}": ${missing.join(', ')}.`, true);
  try {
    const output = tool.execute
      ? await tool.execute(call.arguments, { signal, toolCallId: call.toolCallId })
      : await options.toolExecutor!(call, { signal, messages });
    return typeof output === 'string'
      ? result(output, false)
      : result(output.content, output.isError ?? false);
  } catch (error) {
    return result(
      `Tool "${call.toolName}" failed: ${error instanceof Error ? error.message : String(error)}`,
      true,
    );
  }
}

export function stepOf(response: Response, toolResults: ToolResultPart[]): StepResult {
  return {
    response,
    text: response.text,
    ...(response.reasoning !== undefined ? { reasoning: response.reasoning } : {}),
    toolCalls: response.toolCalls,
    toolResults,
    finishReason: response.finishReason,
    usage: response.usage,
  };
}

export function resultOf(steps: StepResult[], messages: Message[]): GenerateResult {
  const last = steps.at(-1)!;
  const executed = last.toolResults.length > 0;
  return {
    text: last.text,
    ...(last.reasoning !== undefined ? { reasoning: last.reasoning } : {}),
    toolCalls: executed ? [] : last.toolCalls,
    toolResults: steps.flatMap((step) => step.toolResults),
    finishReason: last.finishReason,
    usage: last.usage,
    totalUsage: addUsage(...steps.map((step) => step.usage)),
    steps,
    response: last.response,
    messages,
  };
}

/** Tool results of one round go back as consecutive tool messages, in the order the model called them. */
export function toolResultMessages(results: readonly ToolResultPart[]): Message[] {
  return results.map((part) => Msg.toolResult(part.toolCallId, part.content, part.isError, part.toolName));
}

/**
 * The high-level call with the tool loop: all calls of a round run concurrently and their results go back
 * together in the next request; the loop ends when the model stops calling tools, a call has no executor
 * (passive tools are returned in `toolCalls`), `maxToolRounds` is reached or `stopWhen` says so.
 */
export async function generate(client: Completer, options: GenerateOptions): Promise<GenerateResult> {
  const messages = initialMessages(options);
  const request = baseRequest(options);
  const maxRounds = options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const signal = options.abortSignal ?? new AbortController().signal;
  const steps: StepResult[] = [];
  for (let round = 0; ; round++) {
    const response = await client.complete(
      { ...request, messages: [...messages] },
      { signal, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) },
    );
    messages.push(response.message);
    const calls = response.toolCalls;
    if (round >= maxRounds || !canExecute(options, calls)) {
      steps.push(stepOf(response, []));
      break;
    }
    const results = await Promise.all(calls.map((call) => executeToolCall(call, options, messages, signal)));
    steps.push(stepOf(response, results));
    messages.push(...toolResultMessages(results));
    if (options.stopWhen?.(steps)) break;
  }
  return resultOf(steps, messages);
}
