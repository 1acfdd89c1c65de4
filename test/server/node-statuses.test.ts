import { describe, expect, it } from 'vitest';
import { applyNodeStatus, type NodeStatus, settleNodeStatuses } from '../../src/server/node-statuses.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import type { RunStatus } from '../../src/shared/run-view-json.js';

const ev = (kind: string, node = '', data: Record<string, unknown> = {}): PipelineEvent =>
  // Fixtures of any kind: the fold must cope with what a log holds.
  ({ kind, node_id: node, data, timestamp: '2026-01-01T00:00:00.000Z' }) as PipelineEvent;

const fold = (events: PipelineEvent[]): Record<string, NodeStatus> => {
  const map = new Map<string, NodeStatus>();
  for (const e of events) applyNodeStatus(map, e);
  return Object.fromEntries(map);
};

describe('node statuses: no node of a stopped run is still running', () => {
  const done = ev('node.complete', 'plan', { status: 'success' });
  const cases: [string, PipelineEvent[], Record<string, NodeStatus>][] = [
    [
      'a cancel stops the running node',
      [ev('node.start', 'plan'), ev('pipeline.cancelled')],
      { plan: 'cancelled' },
    ],
    ['a pause now interrupts it', [ev('node.start', 'plan'), ev('pipeline.paused')], { plan: 'interrupted' }],
    [
      'finished nodes keep their outcome',
      [ev('node.start', 'plan'), done, ev('pipeline.cancelled')],
      { plan: 'success' },
    ],
    // A worker releases a run at its gate with a cancel: the gate still waits (the run's status settles it).
    [
      'a gate stays waiting',
      [ev('node.start', 'r'), ev('interview.start', 'r'), ev('pipeline.cancelled')],
      { r: 'waiting' },
    ],
    [
      'a branch stopping stops no top-level node',
      [ev('node.start', 'p'), ev('pipeline.cancelled', '', { branch: 'b' })],
      { p: 'running' },
    ],
  ];
  it.each(cases)('%s', (_name, events, expected) => {
    expect(fold(events)).toEqual(expected);
  });

  const settled: [RunStatus, Record<string, NodeStatus>, Record<string, NodeStatus>][] = [
    ['running', { a: 'running', g: 'waiting' }, { a: 'running', g: 'waiting' }],
    ['waiting', { g: 'waiting', b: 'success' }, { g: 'waiting', b: 'success' }],
    ['waiting', { fan: 'running', g: 'waiting' }, { fan: 'running', g: 'waiting' }],
    [
      'cancelled',
      { a: 'running', g: 'waiting', b: 'success' },
      { a: 'cancelled', g: 'cancelled', b: 'success' },
    ],
    ['interrupted', { a: 'retry', b: 'fail' }, { a: 'interrupted', b: 'fail' }],
    ['failed', { g: 'waiting' }, { g: 'interrupted' }],
  ];
  it.each(settled)('a %s run settles %j as %j', (run, statuses, expected) => {
    expect(settleNodeStatuses(statuses, run)).toEqual(expected);
  });
});
