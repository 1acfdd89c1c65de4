import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { SessionUpdateEvents } from '../../../src/actors/acp/session-update-events.js';

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('SessionUpdateEvents', () => {
  it.each<[string, SessionUpdate, Array<{ kind: string; data: Record<string, unknown> }>]>([
    [
      'message chunk',
      { sessionUpdate: 'agent_message_chunk', content: text('Hi') },
      [{ kind: 'agent.assistant_text_delta', data: { delta: 'Hi', text: 'Hi' } }],
    ],
    [
      'thought chunk',
      { sessionUpdate: 'agent_thought_chunk', content: text('hmm') },
      [{ kind: 'agent.thought_delta', data: { delta: 'hmm', text: 'hmm' } }],
    ],
    [
      'image chunk is not text',
      { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: '', mimeType: 'image/png' } },
      [],
    ],
    [
      'plan',
      { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'low', status: 'pending' }] },
      [{ kind: 'agent.plan', data: { entries: [{ content: 'a', priority: 'low', status: 'pending' }] } }],
    ],
    [
      'usage with a USD cost',
      { sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } },
      [
        {
          kind: 'agent.usage',
          data: {
            context_used: 10,
            context_size: 100,
            cost: { amount: 0.5, currency: 'USD' },
            cost_usd: 0.5,
          },
        },
      ],
    ],
    ['mode change is not shown', { sessionUpdate: 'current_mode_update', currentModeId: 'x' }, []],
  ])('%s', (_name, update, events) => {
    expect(new SessionUpdateEvents().map(update)).toEqual(events);
  });

  it('tool calls: start, update, one end (named by the start), and the turn message accumulates', () => {
    const mapper = new SessionUpdateEvents();
    const start = mapper.map({
      sessionUpdate: 'tool_call',
      toolCallId: 'c',
      title: 'Run tests',
      kind: 'execute',
      rawInput: { cmd: 'npm test' },
    });
    expect(start).toEqual([
      {
        kind: 'agent.tool_call_start',
        data: {
          tool_name: 'Run tests',
          call_id: 'c',
          tool_call_id: 'c',
          arguments: { cmd: 'npm test' },
          title: 'Run tests',
          tool_kind: 'execute',
          status: 'pending',
        },
      },
    ]);
    const done = mapper.map({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c',
      status: 'failed',
      content: [{ type: 'content', content: text('2 failed') }],
    });
    expect(done.map((e) => e.kind)).toEqual(['agent.tool_call_update', 'agent.tool_call_end']);
    expect(done[1]?.data).toMatchObject({ tool_name: 'Run tests', output: '2 failed', is_error: true });
    expect(
      mapper.map({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'failed' }).map((e) => e.kind),
    ).toEqual(['agent.tool_call_update']);
    mapper.map({ sessionUpdate: 'agent_message_chunk', content: text('a') });
    mapper.map({ sessionUpdate: 'agent_message_chunk', content: text('b') });
    expect(mapper.message).toBe('ab');
  });
});
