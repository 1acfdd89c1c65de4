import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { nodeVisitRecords } from '../../src/web/node-visit-records.js';

const ev = (kind: string, node: string, data: Record<string, unknown> = {}): PipelineEvent =>
  // Fixtures of any kind and shape: the reader must cope with what a log holds.
  ({ kind, node_id: node, data, timestamp: '2026-01-01T00:00:00.000Z' }) as PipelineEvent;

describe('nodeVisitRecords: each visit of a node, from the events', () => {
  it('keeps each visit its prompt, words, tool calls and cost; retries stay one visit; others are left out', () => {
    const events = [
      ev('node.start', 'write', { attempt: 1 }),
      ev('agent.user_input', 'write', { text: 'Write v1' }),
      ev('agent.assistant_text_delta', 'write', { text: 'first' }),
      ev('agent.usage', 'write', { cost_usd: 0.5, usage: { inputTokens: 10, outputTokens: 2 } }),
      ev('node.retry', 'write', { attempt: 1 }),
      ev('node.start', 'write', { attempt: 2 }),
      ev('node.complete', 'write', { status: 'success' }),
      ev('node.start', 'review'),
      ev('agent.assistant_text_delta', 'write', { text: 'a branch', branch: 'b' }),
      ev('node.start', 'write', { attempt: 1 }),
      ev('agent.user_input', 'write', { text: 'Write v2' }),
      ev('agent.tool_call_start', 'write', { tool_call_id: 't1', tool_name: 'shell', arguments: {} }),
      ev('agent.tool_call_end', 'write', {
        tool_call_id: 't1',
        tool_name: 'shell',
        output: 'ok',
        is_error: false,
      }),
      ev('agent.usage', 'write', { cost_usd: 0.25, usage: { inputTokens: 5, outputTokens: 1 } }),
    ];
    const visits = nodeVisitRecords(events, 'write');
    expect(visits.map((v) => [v.visit, v.prompts, v.cost.costUsd])).toEqual([
      [1, ['Write v1'], 0.5],
      [2, ['Write v2'], 0.25],
    ]);
    expect(visits[0]?.entries).toEqual([{ type: 'text', node: 'write', text: 'first' }]);
    expect(visits[1]?.entries).toMatchObject([{ type: 'tool', name: 'shell', output: 'ok', done: true }]);
    expect(nodeVisitRecords(events, 'exit')).toEqual([]);
  });
});
