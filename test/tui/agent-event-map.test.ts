import { expect, test } from 'vitest';
import { pipelineEventLineSchema } from '../../src/shared/events/event-line-schema.js';
import { mapAgentEvent } from '../../src/tui/agent-event-map.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import { ev, graphOf, runToGate } from './tui-fixtures.js';

const call = { tool_call_id: 'c1', tool_name: 'shell' };
const tokens = (input: number, output: number, cacheRead?: number) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  ...(cacheRead !== undefined ? { cacheReadTokens: cacheRead } : {}),
});

// Every input is a whole event as its kind's schema has it, checked below: the map reads typed fields.
test.each([
  ['agent.assistant_text_delta', { text: 'Hi' }, { type: 'text', delta: 'Hi' }],
  // An external (ACP) agent's delta carries `delta` beside `text`.
  ['agent.assistant_text_delta', { text: 'Hi', delta: 'Hi' }, { type: 'text', delta: 'Hi' }],
  ['agent.thought_delta', { delta: 'Hmm', text: 'Hmm' }, { type: 'thought', delta: 'Hmm' }],
  [
    'agent.plan',
    {
      entries: [
        { content: 'Read', status: 'completed', priority: 'high' },
        { content: 'Write', status: 'in_progress', priority: '' },
        { content: 'Odd status', status: 'blocked', priority: 'low' },
        { content: '', status: 'pending', priority: 'low' },
      ],
    },
    {
      type: 'plan',
      entries: [
        { content: 'Read', status: 'completed', priority: 'high' },
        { content: 'Write', status: 'in_progress' },
        { content: 'Odd status', status: 'pending', priority: 'low' },
      ],
    },
  ],
  [
    'agent.tool_call_start',
    { ...call, call_id: 'c1', arguments: { command: 'ls' } },
    { type: 'tool_start', callId: 'c1', name: 'shell', args: { command: 'ls' } },
  ],
  [
    'agent.tool_call_start',
    { ...call, arguments: '{"command":"pwd"}' },
    { type: 'tool_start', callId: 'c1', name: 'shell', args: { command: 'pwd' } },
  ],
  [
    'agent.tool_call_start',
    { tool_call_id: 'c3', tool_name: 'apply_patch', arguments: '*** Begin Patch' },
    { type: 'tool_start', callId: 'c3', name: 'apply_patch', args: { input: '*** Begin Patch' } },
  ],
  [
    'agent.tool_call_output_delta',
    { tool_call_id: 'c9', text: 'out\n' },
    { type: 'tool_output', callId: 'c9', delta: 'out\n' },
  ],
  [
    'agent.tool_call_end',
    { ...call, output: 'a\nb', is_error: true },
    { type: 'tool_end', callId: 'c1', output: 'a\nb', isError: true },
  ],
  ['agent.warning', { message: 'context 90% full' }, { type: 'warning', message: 'context 90% full' }],
  [
    'agent.loop_detection',
    { pattern: ['shell'], window: 3, message: 'same call 3 times' },
    { type: 'warning', message: 'loop detected: same call 3 times' },
  ],
  [
    'agent.usage',
    { model: 'gpt-5', usage: tokens(10, 5, 4), cost_usd: 0.5 },
    { type: 'usage', model: 'gpt-5', inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, costUsd: 0.5 },
  ],
  // An external agent reports its context use and cost, not a model call's tokens.
  [
    'agent.usage',
    { context_used: 1200, context_size: 200000 },
    { type: 'usage', inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 },
  ],
  [
    'agent.usage',
    { usage: tokens(7, 3, 2), cost_usd: 0.1 },
    { type: 'usage', inputTokens: 7, outputTokens: 3, cacheReadTokens: 2, costUsd: 0.1 },
  ],
  [
    'agent.context_window_warning',
    { usage_fraction: 0.82, threshold: 0.8, message: 'Context usage at ~82% of context window' },
    { type: 'warning', message: 'Context usage at ~82% of context window' },
  ],
  [
    'agent.output_truncated',
    {
      max_tokens: 64000,
      tool_name: 'write_file',
      message: 'output cut off at 64000 tokens inside a write_file call',
    },
    { type: 'warning', message: 'output cut off at 64000 tokens inside a write_file call' },
  ],
  [
    'agent.compaction',
    { removed_turns: 12, tokens_before: 170000, tokens_after: 40000 },
    { type: 'warning', message: 'context compacted: 12 older turns summarised (170000 → 40000 tokens)' },
  ],
  [
    'agent.turn_limit',
    { turns: 5, limit: 5, kind: 'tool_rounds' },
    { type: 'warning', message: 'turn limit reached: 5 of 5 tool rounds' },
  ],
  ['agent.error', { error: 'overloaded', phase: 'turn' }, { type: 'warning', message: 'error: overloaded' }],
  ['node.start', { attempt: 1, handler: 'codergen', step: 2 }, undefined],
])('%s %o maps to %o', (kind, data, expected) => {
  const event = ev(kind, 'n', data);
  expect(pipelineEventLineSchema.safeParse(event).error).toBeUndefined();
  const mapped = mapAgentEvent(event);
  // Tool calls also carry their event's time, for durations the agent does not report.
  if (mapped?.type === 'tool_start' || mapped?.type === 'tool_end') {
    expect(mapped.at).toBe(Date.parse(event.timestamp));
    delete mapped.at;
  }
  expect(mapped).toEqual(expected);
});

test('a tool call lasts from its start event to its end event', () => {
  const graph = graphOf();
  const events = [
    ...runToGate().slice(0, 3),
    ev('node.start', 'implement', { attempt: 1 }),
    ev('agent.tool_call_start', 'implement', { tool_name: 'shell', tool_call_id: 't1', arguments: {} }),
    ev('agent.tool_call_end', 'implement', { tool_call_id: 't1', output: 'ok' }, 2500),
  ];
  const state = events.reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
  const tool = state.nodes['implement']?.activity.find((item) => item.kind === 'tool');
  expect(tool).toMatchObject({ status: 'ok', durationMs: 2500 });
});
