import { definedFields } from '../shared/defined-fields.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { PlanEntry } from './run-state.js';

/**
 * The one place that knows the agent session's event names and payloads. The coding agent emits
 * `agent.*` PipelineEvents; everything else in the TUI sees only these actions, so renaming an
 * event or a field is a change to this file alone.
 */
export type AgentAction =
  | { type: 'text'; delta: string }
  | { type: 'thought'; delta: string }
  | { type: 'plan'; entries: PlanEntry[] }
  | { type: 'tool_start'; callId: string; name: string; args: Record<string, unknown>; at?: number }
  | { type: 'tool_output'; callId: string; delta: string }
  | {
      type: 'tool_end';
      callId: string;
      output: string;
      isError: boolean;
      at?: number;
    }
  | { type: 'warning'; message: string }
  | {
      type: 'usage';
      model?: string;
      inputTokens: number;
      outputTokens: number;
      cacheReadTokens: number;
      costUsd: number;
    };

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function isArgsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asArgs(value: unknown): Record<string, unknown> {
  if (isArgsObject(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isArgsObject(parsed)) return parsed;
    } catch {
      // Arguments still streaming, or not JSON: shown as one raw value.
    }
    return value === '' ? {} : { input: value };
  }
  return {};
}

const PLAN_STATUSES: readonly string[] = [
  'pending',
  'in_progress',
  'completed',
] satisfies PlanEntry['status'][];

function isPlanStatus(status: string): status is PlanEntry['status'] {
  return PLAN_STATUSES.includes(status);
}

/** An ACP plan's entries; one with no text is dropped, an unknown status reads as pending. */
function planEntries(entries: readonly { content: string; priority: string; status: string }[]): PlanEntry[] {
  return entries.flatMap((e): PlanEntry[] =>
    e.content === ''
      ? []
      : [
          {
            content: e.content,
            status: isPlanStatus(e.status) ? e.status : 'pending',
            ...(e.priority ? { priority: e.priority } : {}),
          },
        ],
  );
}

/** When the event happened (epoch ms), for durations the agent does not report itself. */
function at(event: PipelineEvent): { at?: number } {
  const ms = Date.parse(event.timestamp);
  return Number.isFinite(ms) ? { at: ms } : {};
}

/**
 * Maps one event to what the activity pane does with it; undefined for anything not agent-related.
 * Fields are read as the event schemas (`shared/events/agent-event-schemas.ts`) type them: the built-in
 * session and external (ACP) agents both write `text`, `tool_call_id` and the client's usage names.
 */
export function mapAgentEvent(event: PipelineEvent): AgentAction | undefined {
  switch (event.kind) {
    case 'agent.assistant_text_delta':
      return { type: 'text', delta: event.data.text };
    case 'agent.thought_delta':
      return { type: 'thought', delta: event.data.text };
    case 'agent.plan':
      return { type: 'plan', entries: planEntries(event.data.entries) };
    case 'agent.tool_call_start':
      return {
        type: 'tool_start',
        callId: event.data.tool_call_id,
        name: event.data.tool_name,
        args: asArgs(event.data.arguments),
        ...at(event),
      };
    case 'agent.tool_call_output_delta':
      return { type: 'tool_output', callId: event.data.tool_call_id, delta: event.data.text };
    case 'agent.tool_call_end':
      return {
        type: 'tool_end',
        callId: event.data.tool_call_id,
        output: event.data.output,
        isError: event.data.is_error,
        ...at(event),
      };
    case 'agent.warning':
    case 'agent.context_window_warning':
    case 'agent.output_truncated':
      return { type: 'warning', message: event.data.message || 'warning' };
    case 'agent.compaction': {
      const d = event.data;
      return {
        type: 'warning',
        message: `context compacted: ${d.removed_turns} older turns summarised (${d.tokens_before} → ${d.tokens_after} tokens)`,
      };
    }
    case 'agent.loop_detection':
      return {
        type: 'warning',
        message: `loop detected: ${event.data.message || 'the agent repeats itself'}`,
      };
    case 'agent.turn_limit': {
      const d = event.data;
      return {
        type: 'warning',
        message: `turn limit reached: ${d.turns} of ${d.limit} ${d.kind === 'tool_rounds' ? 'tool rounds' : 'turns'}`,
      };
    }
    case 'agent.error':
      return { type: 'warning', message: `error: ${event.data.error || 'agent error'}` };
    case 'agent.usage': {
      const { usage, model, cost_usd } = event.data;
      return {
        type: 'usage',
        ...definedFields({ model }),
        inputTokens: num(usage?.inputTokens),
        outputTokens: num(usage?.outputTokens),
        cacheReadTokens: num(usage?.cacheReadTokens),
        costUsd: num(cost_usd),
      };
    }
    default:
      return undefined;
  }
}
