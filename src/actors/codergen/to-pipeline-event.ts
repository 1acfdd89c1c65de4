import type { AgentEvent } from '../../agent/session/agent-event.js';

/** A tool's whole output can be megabytes; the event stream keeps this much of it (the model's view stays whole). */
const EVENT_OUTPUT_LIMIT = 16_000;

/**
 * An agent event's data as it goes into the pipeline stream (`agent.<kind>`, events.jsonl, `--json`):
 * the session id added, a very long tool output cut to its first characters with its length noted.
 */
export function toPipelineEventData(event: AgentEvent): Record<string, unknown> {
  const data: Record<string, unknown> = { ...event.data, session_id: event.sessionId };
  const output = data['output'];
  if (typeof output === 'string' && output.length > EVENT_OUTPUT_LIMIT) {
    data['output'] = output.slice(0, EVENT_OUTPUT_LIMIT);
    data['output_chars'] = output.length;
  }
  return data;
}
