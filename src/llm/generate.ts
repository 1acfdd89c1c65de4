import { definedFields } from '../shared/defined-fields.js';
import type { RequestOptions } from './client.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';
import { RequestTimeoutError } from './errors/request-timeout-error.js';
import { type ExecutableTool, toolDefinitionOf } from './executable-tool.js';
import { type LinkedSignal, linkSignals } from './link-signals.js';
import { Message as Msg } from './message.js';
import { checkToolDefinitions } from './tools/check-tool-definitions.js';
import { canExecute, executeToolCall, type ToolLoopSettings } from './tools/execute-tool-call.js';
import type {
  GenerateResult,
  Message,
  Request,
  Response,
  StepResult,
  StreamEvent,
  TimeoutConfig,
  ToolResultPart,
} from './types.js';
import { addUsage } from './usage.js';

/** What generate needs from the client (kept narrow so the loop is testable and free of import cycles). */
export interface Completer {
  complete(request: Request, options?: RequestOptions): Promise<Response>;
}

export type GenerateOptions = Omit<Request, 'messages' | 'tools'> &
  ToolLoopSettings & {
    /** Either a prompt (becomes one user message) or messages, not both. */
    prompt?: string;
    messages?: Message[];
    tools?: ExecutableTool[];
    /** Rounds of tool execution; at most maxToolRounds + 1 model calls. 0 disables execution. Default 10. */
    maxToolRounds?: number;
    /** Per model call all retries of that call included. */
    timeoutMs?: number;
    /** The whole call, tool rounds included; exceeding it throws RequestTimeoutError. */
    totalTimeoutMs?: number;
    /** The adapters' connect / request / stream-read limits for these calls (see TimeoutConfig). */
    timeouts?: Partial<TimeoutConfig>;
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
    repairToolCall: _rt,
    timeoutMs: _t,
    totalTimeoutMs: _tt,
    timeouts: _to,
    abortSignal: _a,
    stopWhen: _s,
    ...request
  } = options;
  return { ...request, ...(tools && tools.length > 0 ? { tools: tools.map(toolDefinitionOf) } : {}) };
}

export function stepOf(response: Response, toolResults: ToolResultPart[]): StepResult {
  return {
    response,
    text: response.text,
    ...definedFields({ reasoning: response.reasoning }),
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
    ...definedFields({ reasoning: last.reasoning }),
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
function toolResultMessages(results: readonly ToolResultPart[]): Message[] {
  return results.map((part) => ({ role: 'tool', toolCallId: part.toolCallId, content: [part] }));
}

/** The per-call options of one model call inside a loop. */
export function callOptions(options: GenerateOptions, signal: AbortSignal | undefined): RequestOptions {
  return {
    ...definedFields({ signal, timeoutMs: options.timeoutMs, timeouts: options.timeouts }),
  };
}

/** Checks the tools and starts the loop's total deadline (its signal also carries the caller's abort). */
function startLoop(options: GenerateOptions): LinkedSignal & { signal: AbortSignal } {
  checkToolDefinitions(options.tools ?? []);
  const total = linkSignals(options.abortSignal, options.totalTimeoutMs, `${options.model} generate`);
  // Tools are promised a signal, even in a loop nothing can abort: one for the whole loop.
  return { ...total, signal: total.signal ?? new AbortController().signal };
}

/** Our total deadline surfaces as RequestTimeoutError, whatever the call it interrupted reported. */
function loopError(error: unknown, total: LinkedSignal, options: GenerateOptions): unknown {
  if (!total.timedOut() || error instanceof RequestTimeoutError) return error;
  return new RequestTimeoutError(
    `generate: the whole call (tool rounds included) exceeded ${options.totalTimeoutMs} ms`,
    { cause: error },
  );
}

/** What the tool loop ends with: its steps and the whole conversation. */
export interface ToolLoopEnd {
  steps: StepResult[];
  messages: Message[];
}

/**
 * One model call of the tool loop: the events it streams on the way (none for a plain `complete`), then its
 * response, or undefined when a stream ended without one (which ends the loop where it stands).
 */
export type ModelCall = (
  request: Request,
  options: RequestOptions,
) => AsyncGenerator<StreamEvent, Response | undefined>;

/**
 * The tool loop generate and streamGenerateWithTools share: all calls of a round run concurrently and their
 * results go back together in the next request; the loop ends when the model stops calling tools, a call
 * goes to a known tool nobody executes (passive tools are returned in `toolCalls`), `maxToolRounds` is
 * reached or `stopWhen` says so. Calls to unknown tools and calls with invalid arguments are answered with
 * error results and the loop goes on. It yields what the model calls stream and a `step_finish` after each
 * round whose tools ran.
 */
export async function* runToolLoop(
  callModel: ModelCall,
  options: GenerateOptions,
): AsyncGenerator<StreamEvent, ToolLoopEnd> {
  const messages = initialMessages(options);
  const request = baseRequest(options);
  const maxRounds = options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const total = startLoop(options);
  const steps: StepResult[] = [];
  try {
    for (let round = 0; ; round++) {
      const response = yield* callModel(
        { ...request, messages: [...messages] },
        callOptions(options, total.signal),
      );
      if (!response) return { steps, messages };
      messages.push(response.message);
      const calls = response.toolCalls;
      if (round >= maxRounds || !canExecute(options, calls)) {
        steps.push(stepOf(response, []));
        return { steps, messages };
      }
      // Every call of the round sees the same conversation, which later rounds do not change.
      const snapshot = [...messages];
      const results = await Promise.all(
        calls.map((call) => executeToolCall(call, options, snapshot, total.signal)),
      );
      steps.push(stepOf(response, results));
      messages.push(...toolResultMessages(results));
      const { finishReason, usage } = response;
      yield { type: 'step_finish', step: round, finishReason, usage, response };
      if (options.stopWhen?.(steps)) return { steps, messages };
    }
  } catch (error) {
    throw loopError(error, total, options);
  } finally {
    total.dispose();
  }
}

/** The high-level call with the tool loop (see runToolLoop), one `complete` a round. */
export async function generate(client: Completer, options: GenerateOptions): Promise<GenerateResult> {
  // biome-ignore lint/correctness/useYield: a `complete` streams nothing; the loop wants only its response
  const loop = runToolLoop(async function* complete(request, callOptions) {
    return await client.complete(request, callOptions);
  }, options);
  let next = await loop.next();
  while (!next.done) next = await loop.next();
  return resultOf(next.value.steps, next.value.messages);
}
