import type { RequestOptions } from './client.js';
import {
  baseRequest,
  callOptions,
  DEFAULT_MAX_TOOL_ROUNDS,
  type GenerateOptions,
  initialMessages,
  loopError,
  startLoop,
  stepOf,
  toolResultMessages,
} from './generate.js';
import { canExecute, executeToolCall } from './tools/execute-tool-call.js';
import type { Request, StepResult, StreamEvent } from './types.js';
import { addUsage } from './usage.js';

export interface Streamer {
  stream(request: Request, options?: RequestOptions): AsyncIterable<StreamEvent>;
}

/** One streamed round; tool calls are reported, not executed. */
export async function* streamGenerate(
  client: Streamer,
  options: GenerateOptions,
): AsyncGenerator<StreamEvent> {
  const request = { ...baseRequest(options), messages: initialMessages(options) };
  yield* client.stream(request, callOptions(options, options.abortSignal));
}

/**
 * Streamed rounds with tool execution between them (same rules as generate: unknown tools and invalid arguments
 * become error results). Each intermediate round's `finish` becomes a `step_finish`; the last round ends with
 * `finish`, whose `usage` is summed over all steps (its `response.usage` is the last step's).
 */
export async function* streamGenerateWithTools(
  client: Streamer,
  options: GenerateOptions,
): AsyncGenerator<StreamEvent> {
  const messages = initialMessages(options);
  const request = baseRequest(options);
  const maxRounds = options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const total = startLoop(options);
  const steps: StepResult[] = [];
  try {
    for (let round = 0; ; round++) {
      let finish: Extract<StreamEvent, { type: 'finish' }> | undefined;
      for await (const event of client.stream(
        { ...request, messages: [...messages] },
        callOptions(options, total.signal),
      )) {
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
      const snapshot = [...messages];
      const results = await Promise.all(
        response.toolCalls.map((call) => executeToolCall(call, options, snapshot, total.signal)),
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
  } catch (error) {
    throw loopError(error, total, options);
  } finally {
    total.dispose();
  }
}
