import { LLMError } from '../../src/llm/errors/llm-error.js';
import type { StreamEvent, ToolDefinition } from '../../src/llm/types.js';

/** The one tool the provider tests call. */
export const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Every event of a stream, pushed into `seen` as it arrives (so a test can inspect them after a throw). */
export async function collectEvents(
  events: AsyncIterable<StreamEvent>,
  seen: StreamEvent[] = [],
): Promise<StreamEvent[]> {
  for await (const event of events) seen.push(event);
  return seen;
}

/** The LLMError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejectionOf(promise: Promise<unknown>): Promise<LLMError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!LLMError.isLLMError(error)) throw new Error(`expected an LLMError, got ${String(error)}`);
  return error;
}

/** The JSON body of the last request a fake provider server received. */
export function lastRequestBody(server: { requests: Array<{ body: unknown }> }): Record<string, unknown> {
  return server.requests.at(-1)?.body as Record<string, unknown>;
}
