import * as z from 'zod';
import { eventData, tokenUsage, usageTotals } from './event-data-object.js';

/**
 * Every agent event names its session; an external (ACP) agent's start names none yet, and its end
 * says `null` when the agent never opened one.
 */
const session = { session_id: z.string().nullable().optional() };
/** An ACP agent's tool calls carry its own id as `call_id` beside `tool_call_id`, and a status. */
const acpCall = { call_id: z.string().optional(), status: z.string().optional() };

/**
 * The coding agent's conversation as `agent.<kind>` events: the built-in session's events (the
 * agent library's `AgentEventKind`) and what an external agent's ACP updates are turned into.
 */
export const agentEventSchemas = {
  'agent.session_start': eventData({
    ...session,
    state: z.string().optional(),
    agent: z.string().optional(),
    command: z.string().optional(),
    resuming: z.boolean().optional(),
  }),
  'agent.session_end': eventData({
    ...session,
    state: z.string().optional(),
    agent: z.string().optional(),
    stop_reason: z.string().nullable().optional(),
    resumed: z.boolean().optional(),
    error: z.string().optional(),
  }),
  'agent.user_input': eventData({ ...session, text: z.string() }),
  'agent.processing_end': eventData(session),
  'agent.assistant_text_start': eventData(session),
  /** `delta` is the ACP-facing alias of `text`. */
  'agent.assistant_text_delta': eventData({ ...session, text: z.string(), delta: z.string().optional() }),
  'agent.assistant_text_end': eventData({ ...session, text: z.string() }),
  'agent.thought_delta': eventData({ ...session, text: z.string(), delta: z.string().optional() }),
  'agent.plan': eventData({
    ...session,
    entries: z.array(z.object({ content: z.string(), priority: z.string(), status: z.string() }).strict()),
  }),
  'agent.tool_call_start': eventData({
    ...session,
    ...acpCall,
    tool_name: z.string(),
    tool_call_id: z.string(),
    arguments: z.unknown(),
    title: z.string().optional(),
    tool_kind: z.string().optional(),
  }),
  'agent.tool_call_output_delta': eventData({ ...session, text: z.string(), tool_call_id: z.string() }),
  'agent.tool_call_update': eventData({
    ...session,
    ...acpCall,
    tool_name: z.string(),
    tool_call_id: z.string(),
    title: z.string().optional(),
    output: z.string().optional(),
  }),
  /** `output` is cut to its first 16,000 characters in the stream; `output_chars` then gives its length. */
  'agent.tool_call_end': eventData({
    ...session,
    ...acpCall,
    tool_name: z.string(),
    tool_call_id: z.string(),
    output: z.string(),
    output_chars: z.number().optional(),
    truncated_output: z.string().optional(),
    is_error: z.boolean(),
  }),
  'agent.steering_injected': eventData({ ...session, text: z.string() }),
  'agent.turn_limit': eventData({
    ...session,
    turns: z.number(),
    limit: z.number(),
    kind: z.enum(['turns', 'tool_rounds']),
  }),
  'agent.loop_detection': eventData({
    ...session,
    pattern: z.array(z.string()),
    window: z.number(),
    message: z.string(),
  }),
  'agent.context_window_warning': eventData({
    ...session,
    usage_fraction: z.number(),
    threshold: z.number(),
    message: z.string(),
  }),
  'agent.output_truncated': eventData({
    ...session,
    max_tokens: z.number(),
    message: z.string(),
    tool_name: z.string().optional(),
    tool_call_id: z.string().optional(),
  }),
  'agent.compaction': eventData({
    ...session,
    removed_turns: z.number(),
    tokens_before: z.number(),
    tokens_after: z.number(),
  }),
  /**
   * One model call's usage (`phase`: turn, compaction, router), with the node's running totals; an ACP
   * agent reports its context window use and cost instead of a model.
   */
  'agent.usage': eventData({
    ...session,
    model: z.string().optional(),
    provider: z.string().optional(),
    usage: tokenUsage.optional(),
    cost_usd: z.number().optional(),
    /** How long the model call took, from its request to its last byte (traces start its span there). */
    duration_ms: z.number().optional(),
    phase: z.string().optional(),
    subagent_id: z.string().optional(),
    node_totals: usageTotals.optional(),
    context_used: z.number().optional(),
    context_size: z.number().optional(),
    cost: z.object({ amount: z.number(), currency: z.string() }).strict().optional(),
  }),
  'agent.warning': eventData({
    ...session,
    message: z.string(),
    tool_call_id: z.string().optional(),
    hook_output: z.string().optional(),
  }),
  'agent.error': eventData({
    ...session,
    error: z.string(),
    phase: z.string().optional(),
    code: z.string().optional(),
    provider: z.string().optional(),
  }),
} as const;
