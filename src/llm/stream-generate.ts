import type { RequestOptions } from './client.js';
import { baseRequest, callOptions, type GenerateOptions, initialMessages, runToolLoop } from './generate.js';
import type { Request, StreamEvent } from './types.js';
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
 * Streamed rounds with tool execution between them: generate's loop (runToolLoop), each round streamed.
 * Each intermediate round's `finish` becomes a `step_finish`; the last round ends with `finish`, whose
 * `usage` is summed over all steps (its `response.usage` is the last step's).
 */
export async function* streamGenerateWithTools(
  client: Streamer,
  options: GenerateOptions,
): AsyncGenerator<StreamEvent> {
  let finish: Extract<StreamEvent, { type: 'finish' }> | undefined;
  const { steps } = yield* runToolLoop(async function* streamRound(request, callOptions) {
    finish = undefined;
    for await (const event of client.stream(request, callOptions)) {
      if (event.type === 'finish') finish = event;
      else yield event;
    }
    return finish?.response;
  }, options);
  if (finish) yield { ...finish, usage: addUsage(...steps.map((step) => step.usage)) };
}
