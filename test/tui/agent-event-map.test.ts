import { expect, test } from 'vitest';
import { mapAgentEvent } from '../../src/tui/agent-event-map.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import { ev, graphOf, runToGate } from './tui-fixtures.js';

test.each([
  ['agent.assistant_text_delta', { delta: 'Hi' }, { type: 'text', delta: 'Hi' }],
  ['agent.thought_delta', { delta: 'Hmm', text: 'Hmm' }, { type: 'thought', delta: 'Hmm' }],
  [
    'agent.plan',
    {
      entries: [
        { content: 'Read', status: 'completed', priority: 'high' },
        { content: 'Write', status: 'in_progress' },
        { content: 'Odd status', status: 'blocked' },
        { content: '', status: 'pending' },
        'not an entry',
      ],
    },
    {
      type: 'plan',
      entries: [
        { content: 'Read', status: 'completed', priority: 'high' },
        { content: 'Write', status: 'in_progress' },
        { content: 'Odd status', status: 'pending' },
      ],
    },
  ],
  ['agent.plan', { entries: 'none' }, { type: 'plan', entries: [] }],
  [
    'agent.tool_call_start',
    { tool_name: 'shell', call_id: 'c1', arguments: { command: 'ls' } },
    { type: 'tool_start', callId: 'c1', name: 'shell', args: { command: 'ls' } },
  ],
  [
    'agent.tool_call_start',
    { tool_name: 'shell', call_id: 'c2', arguments: '{"command":"pwd"}' },
    { type: 'tool_start', callId: 'c2', name: 'shell', args: { command: 'pwd' } },
  ],
  [
    'agent.tool_call_start',
    { tool_name: 'apply_patch', call_id: 'c3', arguments: '*** Begin Patch' },
    { type: 'tool_start', callId: 'c3', name: 'apply_patch', args: { input: '*** Begin Patch' } },
  ],
  [
    'agent.tool_call_output_delta',
    { call_id: 'c1', delta: 'a\n' },
    { type: 'tool_output', callId: 'c1', delta: 'a\n' },
  ],
  [
    'agent.tool_call_end',
    { call_id: 'c1', output: 'a\nb', is_error: true, duration_ms: 12 },
    { type: 'tool_end', callId: 'c1', output: 'a\nb', isError: true, durationMs: 12 },
  ],
  ['agent.warning', { message: 'context 90% full' }, { type: 'warning', message: 'context 90% full' }],
  [
    'agent.loop_detection',
    { message: 'same call 3 times' },
    { type: 'warning', message: 'loop detected: same call 3 times' },
  ],
  [
    'agent.usage',
    { model: 'gpt-5', usage: { input_tokens: 10, output_tokens: 5, cache_read_tokens: 4 }, cost_usd: 0.5 },
    { type: 'usage', model: 'gpt-5', inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, costUsd: 0.5 },
  ],
  ['agent.usage', {}, { type: 'usage', inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 }],
  // The built-in session's own field names (the ACP aliases above are also accepted).
  ['agent.assistant_text_delta', { text: 'Hi' }, { type: 'text', delta: 'Hi' }],
  [
    'agent.tool_call_output_delta',
    { tool_call_id: 'c9', text: 'out\n' },
    { type: 'tool_output', callId: 'c9', delta: 'out\n' },
  ],
  [
    'agent.usage',
    { usage: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 2 }, cost_usd: 0.1 },
    { type: 'usage', inputTokens: 7, outputTokens: 3, cacheReadTokens: 2, costUsd: 0.1 },
  ],
  [
    'agent.context_window_warning',
    { usage_fraction: 0.82, message: 'Context usage at ~82% of context window' },
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
  ['node.start', { attempt: 1 }, undefined],
])('%s %o maps to %o', (kind, data, expected) => {
  const event = ev(kind, 'n', data);
  const mapped = mapAgentEvent(event);
  // Tool calls also carry their event's time, for durations the agent does not report.
  if (mapped?.type === 'tool_start' || mapped?.type === 'tool_end') {
    expect(mapped.at).toBe(Date.parse(event.timestamp));
    delete mapped.at;
  }
  expect(mapped).toEqual(expected);
});

test('a tool call without a reported duration lasts from its start event to its end event', () => {
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
