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
      durationMs?: number;
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

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
/** The first of several names a field goes by: the built-in session's, then the ACP-facing alias. */
const either = (d: Record<string, unknown>, ...names: string[]): unknown =>
  names.map((name) => d[name]).find((value) => value !== undefined);

function asArgs(value: unknown): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // Arguments still streaming, or not JSON: shown as one raw value.
    }
    return value === '' ? {} : { input: value };
  }
  return {};
}

const PLAN_STATUSES = new Set(['pending', 'in_progress', 'completed']);

/** An ACP plan's entries; anything malformed in one is dropped rather than shown half-read. */
function planEntries(value: unknown): PlanEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): PlanEntry[] => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const content = str(e['content']);
    if (content === '') return [];
    const status = PLAN_STATUSES.has(str(e['status'])) ? (e['status'] as PlanEntry['status']) : 'pending';
    return [{ content, status, ...(str(e['priority']) ? { priority: str(e['priority']) } : {}) }];
  });
}

/** When the event happened (epoch ms), for durations the agent does not report itself. */
function at(event: PipelineEvent): { at?: number } {
  const ms = Date.parse(event.timestamp);
  return Number.isFinite(ms) ? { at: ms } : {};
}

/** Maps one event to what the activity pane does with it; undefined for anything not agent-related. */
export function mapAgentEvent(event: PipelineEvent): AgentAction | undefined {
  const d = event.data;
  switch (event.kind) {
    // The built-in session names its fields `text` / `tool_call_id` and its usage `inputTokens`…;
    // ACP events carry those too, plus `delta` / `call_id` aliases.
    case 'agent.assistant_text_delta':
      return { type: 'text', delta: str(either(d, 'text', 'delta')) };
    case 'agent.thought_delta':
      return { type: 'thought', delta: str(either(d, 'text', 'delta')) };
    case 'agent.plan':
      return { type: 'plan', entries: planEntries(d['entries']) };
    case 'agent.tool_call_start':
      return {
        type: 'tool_start',
        callId: str(either(d, 'tool_call_id', 'call_id')),
        name: str(d['tool_name']),
        args: asArgs(d['arguments']),
        ...at(event),
      };
    case 'agent.tool_call_output_delta':
      return {
        type: 'tool_output',
        callId: str(either(d, 'tool_call_id', 'call_id')),
        delta: str(either(d, 'text', 'delta')),
      };
    case 'agent.tool_call_end':
      return {
        type: 'tool_end',
        callId: str(either(d, 'tool_call_id', 'call_id')),
        output: str(d['output']),
        isError: d['is_error'] === true,
        ...(typeof d['duration_ms'] === 'number' ? { durationMs: d['duration_ms'] } : {}),
        ...at(event),
      };
    case 'agent.warning':
    case 'agent.context_window_warning':
    case 'agent.output_truncated':
      return { type: 'warning', message: str(d['message']) || 'warning' };
    case 'agent.compaction':
      return {
        type: 'warning',
        message: `context compacted: ${num(d['removed_turns'])} older turns summarised (${num(d['tokens_before'])} → ${num(d['tokens_after'])} tokens)`,
      };
    case 'agent.loop_detection':
      return {
        type: 'warning',
        message: `loop detected: ${str(d['message']) || 'the agent repeats itself'}`,
      };
    case 'agent.turn_limit':
      return {
        type: 'warning',
        message: `turn limit reached: ${num(d['turns'])} of ${num(d['limit'])} ${d['kind'] === 'tool_rounds' ? 'tool rounds' : 'turns'}`,
      };
    case 'agent.error':
      return { type: 'warning', message: `error: ${str(d['error']) || str(d['message']) || 'agent error'}` };
    case 'agent.usage': {
      const usage = (d['usage'] ?? {}) as Record<string, unknown>;
      return {
        type: 'usage',
        ...(typeof d['model'] === 'string' ? { model: d['model'] } : {}),
        inputTokens: num(either(usage, 'inputTokens', 'input_tokens')),
        outputTokens: num(either(usage, 'outputTokens', 'output_tokens')),
        cacheReadTokens: num(either(usage, 'cacheReadTokens', 'cache_read_tokens')),
        costUsd: num(d['cost_usd']),
      };
    }
    default:
      return undefined;
  }
}
