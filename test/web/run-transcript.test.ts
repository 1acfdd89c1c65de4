import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { buildTranscript, nodeCost, type TranscriptEntry } from '../../src/web/run-transcript.js';

const ev = (kind: string, node: string, data: Record<string, unknown>): PipelineEvent =>
  // Fixtures of any kind and shape: the readers under test must cope with what a log holds.
  ({
    kind,
    node_id: node,
    data,
    timestamp: '2026-01-01T00:00:00.000Z',
  }) as PipelineEvent;

describe('buildTranscript: the agent transcript from events', () => {
  const cases: [string, PipelineEvent[], TranscriptEntry[]][] = [
    [
      'text deltas join; the built-in agent names its field `text`',
      [
        ev('agent.assistant_text_delta', 'a', { text: 'Hel' }),
        ev('agent.assistant_text_delta', 'a', { text: 'lo' }),
      ],
      [{ type: 'text', node: 'a', text: 'Hello' }],
    ],
    [
      'ACP events carry `delta` beside `text`',
      [ev('agent.assistant_text_delta', 'a', { delta: 'Hi', text: 'Hi' })],
      [{ type: 'text', node: 'a', text: 'Hi' }],
    ],
    [
      'another node starts another entry',
      [
        ev('agent.assistant_text_delta', 'a', { text: 'one' }),
        ev('agent.assistant_text_delta', 'b', { text: 'two' }),
      ],
      [
        { type: 'text', node: 'a', text: 'one' },
        { type: 'text', node: 'b', text: 'two' },
      ],
    ],
    [
      'a tool call with its output and end, between words',
      [
        ev('agent.assistant_text_delta', 'a', { text: 'Let me look.' }),
        ev('agent.tool_call_start', 'a', {
          tool_name: 'shell',
          tool_call_id: 't1',
          arguments: { command: 'ls' },
        }),
        ev('agent.tool_call_output_delta', 'a', { tool_call_id: 't1', text: 'README' }),
        ev('agent.tool_call_end', 'a', { tool_call_id: 't1', output: 'README.md', is_error: false }),
        ev('agent.assistant_text_delta', 'a', { text: 'Done.' }),
      ],
      [
        { type: 'text', node: 'a', text: 'Let me look.' },
        {
          type: 'tool',
          node: 'a',
          id: 't1',
          name: 'shell',
          args: '{\n  "command": "ls"\n}',
          output: 'README.md',
          isError: false,
          done: true,
        },
        { type: 'text', node: 'a', text: 'Done.' },
      ],
    ],
    [
      'thoughts apart from words; errors as notes; other events ignored',
      [
        ev('agent.thought_delta', 'a', { text: 'hmm' }),
        ev('node.start', 'a', {}),
        ev('agent.error', 'a', { error: 'rate limited' }),
      ],
      [
        { type: 'thought', node: 'a', text: 'hmm' },
        { type: 'note', node: 'a', text: 'rate limited' },
      ],
    ],
  ];
  it.each(cases)('%s', (_name, events, expected) => {
    expect(buildTranscript(events)).toEqual(expected);
  });

  it("nodeCost adds one node's usage events only", () => {
    const events = [
      ev('agent.usage', 'a', { cost_usd: 0.5, usage: { inputTokens: 10, outputTokens: 2 } }),
      ev('agent.usage', 'b', { cost_usd: 9, usage: { inputTokens: 1, outputTokens: 1 } }),
      ev('agent.usage', 'a', { cost_usd: 0.25, usage: { inputTokens: 5, outputTokens: 1 } }),
      // An external agent's usage: its context and cost, no tokens.
      ev('agent.usage', 'a', { context_used: 100, context_size: 1000 }),
    ];
    expect(nodeCost(events, 'a')).toEqual({ costUsd: 0.75, inputTokens: 15, outputTokens: 3 });
  });
});
