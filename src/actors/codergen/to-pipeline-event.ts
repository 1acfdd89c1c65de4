import type { AgentEvent } from '../../agent/session/agent-event.js';
import type { EventData } from '../../shared/pipeline-event.js';
import type { AgentEventKindName, AgentPipelineEvent } from '../acp/session-update-events.js';

/** A tool's whole output can be megabytes; the event stream keeps this much of it (the model's view stays whole). */
const EVENT_OUTPUT_LIMIT = 16_000;

/**
 * An agent event as it goes into the pipeline stream (`agent.<kind>`, events.jsonl, `--json`): the
 * session id added, a very long tool output cut to its first characters with its length noted.
 */
export function toPipelineEvent(event: AgentEvent): AgentPipelineEvent {
  const data: Record<string, unknown> = { ...event.data, session_id: event.sessionId };
  const output = data['output'];
  if (typeof output === 'string' && output.length > EVENT_OUTPUT_LIMIT) {
    data['output'] = output.slice(0, EVENT_OUTPUT_LIMIT);
    data['output_chars'] = output.length;
  }
  // Each kind's data is already typed by the pipeline's `agent.<kind>` schema (AgentEventData); the
  // cast only re-pairs the prefixed kind with it, which TypeScript cannot follow through a template.
  const kind: AgentEventKindName = `agent.${event.kind}`;
  return { kind, data: data as EventData<AgentEventKindName> } as AgentPipelineEvent;
}
