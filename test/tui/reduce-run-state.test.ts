import { describe, expect, test } from 'vitest';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import { runElapsedMs } from '../../src/tui/run-elapsed.js';
import type { RunState } from '../../src/tui/run-state.js';
import { ev, graphOf, runToGate } from './tui-fixtures.js';

const graph = graphOf();
const fold = (events = runToGate()): RunState =>
  events.reduce((state, event) => reduceRunState(graph, state, event), initialRunState(graph));

describe('reduceRunState', () => {
  test('the initial state lists every node, pending, in flow order with exits last', () => {
    const state = initialRunState(graph);
    expect(state.order).toEqual([
      'start',
      'plan',
      'implement',
      'test',
      'fan',
      'lint',
      'types',
      'join',
      'review',
      'done',
    ]);
    expect(Object.values(state.nodes).every((n) => n.status === 'pending')).toBe(true);
    expect(state.nodes['test']?.subgraph).toBe('Build');
    expect(state.nodes['plan']).toMatchObject({
      label: 'Plan the change',
      kind: 'codergen',
      model: 'claude-sonnet-4-5',
    });
  });

  const state = fold();
  test.each([
    ['start', { status: 'success', next: 'plan', route: 'only edge' }],
    ['plan', { status: 'success', notes: 'planned 3 steps', costUsd: 0.0123, next: 'implement' }],
    ['implement', { status: 'success', next: 'test' }],
    ['test', { status: 'success', durationMs: 1000, next: 'fan' }],
    ['fan', { status: 'partial', next: 'join' }],
    ['lint', { status: 'success', branchOf: 'fan' }],
    ['types', { status: 'failed', failureReason: 'tsc: 2 errors', branchOf: 'fan' }],
    ['join', { status: 'success', next: 'review' }],
    ['review', { status: 'running', attempt: 1, visits: 1 }],
    ['done', { status: 'pending', visits: 0 }],
  ])('after the run reaches the gate, %s is %o', (id, expected) => {
    expect(state.nodes[id]).toMatchObject(expected);
  });

  test('the run waits on the gate, with its question, options and timeout', () => {
    expect(state.phase).toBe('waiting');
    expect(state.current).toBe('review');
    expect(state.gate).toMatchObject({
      nodeId: 'review',
      text: 'Ship it?',
      timeoutMs: 30000,
      options: [
        { key: 'A', label: '[A] Approve', target: 'done' },
        { key: 'R', label: '[R] Revise', target: 'plan' },
      ],
    });
  });

  test('parallel branches fill in as they finish', () => {
    expect(state.nodes['fan']?.branches).toEqual([
      { id: 'lint', status: 'success' },
      { id: 'types', status: 'failed' },
    ]);
  });

  test('usage adds up tokens and cost and remembers the model', () => {
    expect(state.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 300,
      cacheReadTokens: 600,
      costUsd: 0.0123,
      model: 'claude-sonnet-4-5',
    });
  });

  test('the agent conversation becomes text, tool and warning items', () => {
    const activity = state.nodes['implement']?.activity ?? [];
    expect(activity.map((item) => item.kind)).toEqual(['text', 'tool']);
    expect(activity[0]).toMatchObject({
      kind: 'text',
      text: '## Adding the route\nI will edit `server.ts`:\n```ts\nconst x = 1;\n```\n',
      done: true,
    });
    expect(activity[1]).toMatchObject({
      kind: 'tool',
      name: 'edit_file',
      status: 'ok',
      output: 'edited',
      durationMs: 40,
    });
  });

  test('every finished visit is logged once, branches included', () => {
    expect(state.log.map((e) => `${e.nodeId}:${e.status}`)).toEqual([
      'start:success',
      'plan:success',
      'implement:success',
      'test:success',
      'lint:success',
      'types:failed',
      'fan:partial',
      'join:success',
    ]);
    expect(new Set(state.log.map((e) => e.id)).size).toBe(state.log.length);
  });

  const answered = fold([
    ...runToGate(),
    ev('interview.complete', 'review', { key: 'A', label: '[A] Approve', target: 'done' }),
    ev('node.complete', 'review', {
      status: 'success',
      preferred_label: '[A] Approve',
      notes: 'Human selected: [A] Approve',
    }),
    ev('node.start', 'done', { attempt: 1 }),
    ev('node.complete', 'done', { status: 'success' }),
    ev('pipeline.complete', 'done'),
    ev('pipeline.finalize', undefined, { status: 'completed', quality: 'degraded' }),
  ]);
  test.each([
    ['phase', 'done'],
    ['quality', 'degraded'],
    ['gate', undefined],
  ] as const)('after the answer and the exit, %s is %o', (key, value) => {
    expect(answered[key]).toEqual(value);
  });
  test('the gate records the edge its answer took and why', () => {
    expect(answered.nodes['review']).toMatchObject({ next: 'done', route: 'preferred label "[A] Approve"' });
  });

  test.each([
    [
      'retry marks the node retrying with its attempt',
      [
        ev('node.start', 'plan', { attempt: 1 }),
        ev('node.retry', 'plan', { attempt: 2, reason: 'rate limited' }),
      ],
      'plan',
      { status: 'retrying', attempt: 2, failureReason: 'rate limited' },
    ],
    [
      'a jump records its target and reason',
      [
        ev('node.start', 'plan', { attempt: 1 }),
        ev('node.complete', 'plan', { status: 'fail' }),
        ev('node.jump', 'plan', { target: 'start', reason: 'retry target of plan' }),
      ],
      'plan',
      { status: 'failed', next: 'start', route: 'retry target of plan' },
    ],
    [
      'a skipped outcome is skipped',
      [ev('node.start', 'plan', { attempt: 1 }), ev('node.complete', 'plan', { status: 'skipped' })],
      'plan',
      { status: 'skipped' },
    ],
    [
      "a child pipeline's node events are not this graph's",
      [ev('node.start', 'plan', { attempt: 1, parent: 'manager' })],
      'plan',
      { status: 'pending' },
    ],
  ])('%s', (_name, events, id, expected) => {
    expect(fold(events).nodes[id]).toMatchObject(expected);
  });

  test.each([
    // A pause asked for ("pausing") is known only to the live actor: test/tui/actor-status.test.ts.
    [
      'the engine pauses',
      [ev('node.start', 'plan', { attempt: 1 }), ev('pipeline.paused', 'test', { resume_at: 'test' })],
      'paused',
    ],
    [
      'cancelled',
      [ev('node.start', 'plan', { attempt: 1 }), ev('pipeline.cancelled', 'plan', { resume_at: 'plan' })],
      'cancelled',
    ],
    [
      'failed',
      [
        ev('pipeline.error', 'plan', { error: 'boom' }),
        ev('pipeline.finalize', undefined, { status: 'failed', quality: 'failed' }),
      ],
      'failed',
    ],
  ] as const)('phase: %s', (_name, events, phase) => {
    expect(fold([ev('pipeline.start', undefined, { name: 'release', run_id: 'r' }), ...events]).phase).toBe(
      phase,
    );
  });

  test('an event that changes nothing returns the same state object', () => {
    const state0 = initialRunState(graph);
    expect(reduceRunState(graph, state0, ev('checkpoint.saved', undefined, {}))).toBe(state0);
  });
});

describe('the elapsed time across a resume', () => {
  const at = (iso: string) => Date.parse(iso);
  const event = (kind: string, time: string, data: Record<string, unknown> = {}) =>
    ({ kind, data, timestamp: time }) as Parameters<typeof reduceRunState>[2];
  const replayed = [
    event('pipeline.start', '2026-11-23T09:00:00.000Z', { name: 'release', run_id: 'run-1' }),
    event('node.start', '2026-11-23T09:00:01.000Z', { attempt: 1 }),
    event('pipeline.finalize', '2026-11-23T09:00:05.000Z', {
      status: 'paused',
      quality: 'failed',
      failed_nodes: [],
      recovered_nodes: [],
      partial_nodes: [],
    }),
  ];

  test.each([
    ['a paused run, resumed an hour later', replayed, 5_000],
    // Killed: no end was recorded, so its last event is where it stopped.
    ['a killed run, resumed an hour later', replayed.slice(0, 2), 1_000],
  ])('%s: counts on from what it took before, not the hour between', (_what, before, took) => {
    const resumed = [...before, event('pipeline.resume', '2026-11-23T10:00:00.000Z', { resume_at: 'plan' })];
    const state = resumed.reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
    expect(state.phase).toBe('running');
    expect(runElapsedMs(state, at('2026-11-23T10:00:03.000Z'))).toBe(took + 3_000);
    // It keeps counting while the resumed run goes on.
    expect(runElapsedMs(state, at('2026-11-23T10:00:09.000Z'))).toBe(took + 9_000);
  });
});
