import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import type { RunStatus } from '../../src/shared/run-view-json.js';
import { buildTimeline, type NodeVisit } from '../../src/web/run-timeline.js';

const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const ev = (kind: string, s: number, node: string, data: Record<string, unknown> = {}): PipelineEvent =>
  // Fixtures of any kind and shape: the readers under test must cope with what a log holds.
  ({
    kind,
    node_id: node,
    data,
    timestamp: at(s),
  }) as PipelineEvent;
type Row = Pick<NodeVisit, 'node' | 'visit' | 'status' | 'retries' | 'durationMs' | 'waitedForPerson'>;
const rows = (events: PipelineEvent[], run?: RunStatus): Row[] =>
  buildTimeline(events, run).map(({ node, visit, status, retries, durationMs, waitedForPerson }) => ({
    node,
    visit,
    status,
    retries,
    durationMs,
    waitedForPerson,
  }));
const row = (
  node: string,
  visit: number,
  status: string,
  durationMs?: number,
  retries = 0,
  waited = false,
): Row => ({
  node,
  visit,
  status,
  retries,
  durationMs,
  waitedForPerson: waited,
});

describe('buildTimeline: node visits from events', () => {
  const cases: [string, PipelineEvent[], Row[]][] = [
    ['no events', [], []],
    ['a node still running', [ev('node.start', 1, 'plan')], [row('plan', 1, 'running')]],
    [
      'a finished node and its duration',
      [ev('node.start', 1, 'plan'), ev('node.complete', 4, 'plan', { status: 'success' })],
      [row('plan', 1, 'success', 3000)],
    ],
    [
      'retries stay one visit, counted',
      [
        ev('node.start', 1, 'test'),
        ev('node.retry', 2, 'test', { attempt: 1 }),
        ev('node.start', 3, 'test', { attempt: 2 }),
        ev('node.retry', 4, 'test', { attempt: 2 }),
        ev('node.start', 5, 'test', { attempt: 3 }),
        ev('node.complete', 6, 'test', { status: 'success' }),
      ],
      [row('test', 1, 'success', 5000, 2)],
    ],
    [
      'a loop visits a node again',
      [
        ev('node.start', 1, 'implement'),
        ev('node.complete', 2, 'implement', { status: 'success' }),
        ev('node.start', 2, 'test'),
        ev('node.complete', 3, 'test', { status: 'fail' }),
        ev('node.start', 3, 'implement'),
        ev('node.complete', 5, 'implement', { status: 'success' }),
      ],
      [
        row('implement', 1, 'success', 1000),
        row('test', 1, 'fail', 1000),
        row('implement', 2, 'success', 2000),
      ],
    ],
    [
      'a gate that asked a person',
      [
        ev('node.start', 1, 'review'),
        ev('interview.start', 1, 'review'),
        ev('node.complete', 9, 'review', { status: 'success' }),
      ],
      [row('review', 1, 'success', 8000, 0, true)],
    ],
    [
      'branch and child-pipeline nodes are not top-level visits',
      [
        ev('node.start', 1, 'fan'),
        ev('node.start', 2, 'b', { branch: 'b' }),
        ev('node.complete', 3, 'b', { branch: 'b', status: 'success' }),
        ev('node.start', 2, 'c', { parent: 'm' }),
        ev('node.complete', 4, 'fan', { status: 'partial_success' }),
      ],
      [row('fan', 1, 'partial_success', 3000)],
    ],
    ['a completion without a start is ignored', [ev('node.complete', 1, 'x', { status: 'success' })], []],
  ];
  it.each(cases)('%s', (_name, events, expected) => {
    expect(rows(events)).toEqual(expected);
  });
});

// Every clock stops when its run does: no node of a stopped run is still running, and a gate waiting for
// its answer shows since when, not a growing bar.
describe('buildTimeline: a stopped run stops its clocks', () => {
  const gate = [ev('node.start', 1, 'review'), ev('interview.start', 2, 'review')];
  const cases: [string, PipelineEvent[], RunStatus, Row[]][] = [
    [
      'cancelled while a node ran: the node is cancelled at the cancel',
      [
        ev('node.start', 1, 'plan'),
        ev('pipeline.cancelled', 4, ''),
        ev('pipeline.finalize', 4, '', { status: 'cancelled' }),
      ],
      'cancelled',
      [row('plan', 1, 'cancelled', 3000)],
    ],
    [
      'the server died while a node ran (no event says so): interrupted at the last event',
      [ev('node.start', 1, 'plan'), ev('agent.usage', 6, 'plan')],
      'interrupted',
      [row('plan', 1, 'interrupted', 5000)],
    ],
    [
      'failed by an error while a node ran',
      [ev('node.start', 1, 'plan'), ev('pipeline.error', 2, '')],
      'failed',
      [row('plan', 1, 'interrupted', 1000)],
    ],
    ['a gate of a running run waits', gate, 'waiting', [row('review', 1, 'waiting', undefined, 0, true)]],
    [
      'a worker released the run at its gate (a cancel): the gate still waits',
      [...gate, ev('pipeline.cancelled', 3, ''), ev('pipeline.finalize', 3, '', { status: 'cancelled' })],
      'waiting',
      [row('review', 1, 'waiting', undefined, 0, true)],
    ],
    [
      'a released gate taken up again is the same visit',
      [
        ...gate,
        ev('pipeline.cancelled', 3, ''),
        ev('pipeline.resume', 7, ''),
        ev('node.start', 7, 'review'),
        ev('interview.complete', 7, 'review'),
        ev('node.complete', 8, 'review', { status: 'success' }),
      ],
      'completed',
      [row('review', 1, 'success', 7000, 0, true)],
    ],
    [
      'a run cancelled at its gate: the gate is cancelled at the cancel',
      [...gate, ev('pipeline.cancelled', 5, ''), ev('pipeline.finalize', 5, '', { status: 'cancelled' })],
      'cancelled',
      [row('review', 1, 'cancelled', 4000, 0, true)],
    ],
  ];
  it.each(cases)('%s', (_name, events, run, expected) => {
    expect(rows(events, run)).toEqual(expected);
  });

  it('a gate says who answered it, when its answer says', () => {
    const events = [...gate, ev('interview.complete', 4, 'review', { answered_by: 'ada' })];
    expect(buildTimeline(events, 'running')[0]?.answeredBy).toBe('ada');
  });

  it('a waiting gate says since when, and its clock does not run on', () => {
    const [visit] = buildTimeline(gate, 'waiting');
    expect(visit?.waitingSince).toBe(at(2));
    expect(visit?.endedAt).toBeUndefined();
  });
});
