import type { StreamEvent, ToolDefinition } from '../../src/llm/types.js';

/** The one tool the provider tests call. */
export const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

export async function collectEvents(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The JSON body of the last request a fake provider server received. */
export function lastRequestBody(server: { requests: Array<{ body: unknown }> }): Record<string, unknown> {
  return server.requests.at(-1)?.body as Record<string, unknown>;
}
