import type { RequestOptions } from './client.js';
import {
  baseRequest,
  canExecute,
  DEFAULT_MAX_TOOL_ROUNDS,
  executeToolCall,
  type GenerateOptions,
  initialMessages,
  stepOf,
  toolResultMessages,
} from './generate.js';
import type { Request, StepResult, StreamEvent } from './types.js';
import { addUsage } from './usage.js';

export interface Streamer {
  stream(request: Request, options?: RequestOptions): AsyncIterable<StreamEvent>;
}

function callOptions(options: GenerateOptions): RequestOptions {
  return {
    ...(options.abortSignal ? { signal: options.abortSignal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
}

/** One streamed round; tool calls are reported, not executed. */
export async function* streamGenerate(
  client: Streamer,
  options: GenerateOptions,
): AsyncGenerator<StreamEvent> {
  const request = { ...baseRequest(options), messages: initialMessages(options) };
  yield* client.stream(request, callOptions(options));
}

/**
 * Streamed rounds with tool execution between them. Each intermediate round's `finish` becomes a `step_finish`;
 * the last round ends with `finish`, whose `usage` is summed over all steps (its `response.usage` is the
 * last step's).
 */
export async function* streamGenerateWithTools(
  client: Streamer,
  options: GenerateOptions,
): AsyncGenerator<StreamEvent> {
  const messages = initialMessages(options);
  const request = baseRequest(options);
  const maxRounds = options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const signal = options.abortSignal ?? new AbortController().signal;
  const steps: StepResult[] = [];
  for (let round = 0; ; round++) {
    let finish: Extract<StreamEvent, { type: 'finish' }> | undefined;
    for await (const event of client.stream({ ...request, messages: [...messages] }, callOptions(options))) {
      if (event.type === 'finish') finish = event;
      else yield event;
    }
    if (!finish) return;
    const response = finish.response;
    messages.push(response.message);
    if (round >= maxRounds || !canExecute(options, response.toolCalls)) {
      steps.push(stepOf(response, []));
      yield { ...finish, usage: addUsage(...steps.map((step) => step.usage)) };
      return;
    }
    const results = await Promise.all(
      response.toolCalls.map((call) => executeToolCall(call, options, messages, signal)),
    );
    steps.push(stepOf(response, results));
    messages.push(...toolResultMessages(results));
    yield {
      type: 'step_finish',
      step: round,
      finishReason: response.finishReason,
      usage: response.usage,
      response,
    };
    if (options.stopWhen?.(steps)) {
      yield { ...finish, usage: addUsage(...steps.map((step) => step.usage)) };
      return;
    }
  }
}
