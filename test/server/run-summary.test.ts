import { describe, expect, it } from 'vitest';
import { emptyRunSummary, foldRunSummary, type RunSummary } from '../../src/server/run-summary.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';

const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const ev = (kind: string, s: number, node?: string, data: Record<string, unknown> = {}): PipelineEvent =>
  // Fixtures of any kind and shape: the readers under test must cope with what a log holds.
  ({
    kind,
    data,
    timestamp: at(s),
    ...(node ? { node_id: node } : {}),
  }) as PipelineEvent;
const fold = (events: PipelineEvent[]): RunSummary => events.reduce(foldRunSummary, emptyRunSummary());
const usage = (s: number, node: string, cost: number, input: number, output: number, extra = {}) =>
  ev('agent.usage', s, node, {
    cost_usd: cost,
    usage: { inputTokens: input, outputTokens: output },
    ...extra,
  });

describe('foldRunSummary', () => {
  const cases: [string, PipelineEvent[], Partial<RunSummary>][] = [
    ['nothing yet', [], { cost_usd: 0, input_tokens: 0, output_tokens: 0 }],
    [
      'started, at its first node',
      [ev('pipeline.start', 1), ev('node.start', 2, 'start')],
      { started_at: at(1), current_node: 'start' },
    ],
    [
      'the node entered last is current; branch and child nodes are not',
      [
        ev('pipeline.start', 1),
        ev('node.start', 2, 'fan'),
        ev('node.start', 3, 'b1', { branch: 'b1' }),
        ev('node.start', 4, 'c', { parent: 'manager' }),
      ],
      { current_node: 'fan' },
    ],
    [
      'usage adds up wherever it was spent, an external agent’s included',
      [
        usage(1, 'a', 0.25, 100, 10),
        usage(2, 'b', 0.5, 200, 20, { branch: 'x' }),
        ev('agent.usage', 3, 'c', {
          provider: 'acp:coder',
          cost_usd: 0.25,
          usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
        }),
      ],
      { cost_usd: 1, input_tokens: 301, output_tokens: 32 },
    ],
    ['ended', [ev('pipeline.start', 1), ev('pipeline.finalize', 9)], { started_at: at(1), ended_at: at(9) }],
    [
      'a resume keeps the first start and clears the end',
      [ev('pipeline.start', 1), ev('pipeline.finalize', 5), ev('pipeline.resume', 7)],
      { started_at: at(1), ended_at: undefined },
    ],
    ['not checkpointed before its first checkpoint', [ev('pipeline.start', 1)], { checkpointed: undefined }],
    [
      'checkpointed by its own checkpoint, not a branch’s',
      [ev('checkpoint.saved', 2, undefined, { branch: 'b' })],
      { checkpointed: undefined },
    ],
    ['checkpointed', [ev('pipeline.start', 1), ev('checkpoint.saved', 2)], { checkpointed: true }],
    [
      'a fork: checkpointed from the start, naming its origin',
      [ev('pipeline.resume', 1, undefined, { forked_from: { run_id: 'r1', node: 'plan' } })],
      { checkpointed: true, forked_from: { run_id: 'r1', node: 'plan' } },
    ],
    [
      'a usage event without numbers counts nothing',
      [ev('agent.usage', 1, 'a', { cost_usd: 'x' })],
      { cost_usd: 0, input_tokens: 0 },
    ],
  ];
  it.each(cases)('%s', (_name, events, expected) => {
    const summary = fold(events);
    for (const [key, value] of Object.entries(expected))
      expect(summary[key as keyof RunSummary], key).toEqual(value);
  });
});
