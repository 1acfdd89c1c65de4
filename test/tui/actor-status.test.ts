import { describe, expect, test } from 'vitest';
import { actorStatusOf, applyActorStatus, nodeOfStateKey } from '../../src/tui/actor-status.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import type { RunState } from '../../src/tui/run-state.js';
import { ev, graphOf, rootSnapshot } from './tui-fixtures.js';

const graph = graphOf();
const nodeOf = nodeOfStateKey(graph);
const fold = (events: ReturnType<typeof ev>[]): RunState =>
  events.reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));

describe('actorStatusOf: what the root actor knows, from one inspection event', () => {
  test.each([
    ['a node running', rootSnapshot({ plan: 'run' }), { node: 'plan', pauseRequested: false }],
    ['entering a node is not running it', rootSnapshot({ plan: 'enter' }), { pauseRequested: false }],
    ['backing off between attempts', rootSnapshot({ plan: 'backoff' }), { pauseRequested: false }],
    [
      'a pause asked for',
      rootSnapshot({ test: 'run' }, { pauseRequested: true }),
      { node: 'test', pauseRequested: true },
    ],
    ['stopped: paused', rootSnapshot('__paused', {}, 'done'), { pauseRequested: false, stopped: 'paused' }],
    [
      'stopped: cancelled',
      rootSnapshot('__cancelled', {}, 'done'),
      { pauseRequested: false, stopped: 'cancelled' },
    ],
    [
      'completed (the events carry the quality)',
      rootSnapshot('__completed', {}, 'done'),
      { pauseRequested: false },
    ],
  ])('%s', (_name, event, expected) => {
    expect(actorStatusOf(event, nodeOf)).toEqual(expected);
  });

  test('a child actor (a handler, a parallel branch) is not the run', () => {
    expect(actorStatusOf(rootSnapshot({ plan: 'run' }, {}, 'active', 'x:7'), nodeOf)).toBeUndefined();
  });

  test('state keys map back to node ids, escaped ones too', () => {
    const escaped = graphOf(
      'digraph g { start [shape=Mdiamond]; __setup [prompt="x"]; exit [shape=Msquare]; start -> __setup -> exit }',
    );
    expect(nodeOfStateKey(escaped)('~__setup')).toBe('__setup');
    expect(nodeOfStateKey(escaped)('__setup')).toBeUndefined();
  });
});

describe('applyActorStatus: folded into the state before the events say it', () => {
  const running = fold([
    ev('pipeline.start', undefined, { name: 'release' }),
    ev('node.start', 'plan', { attempt: 1 }),
  ]);

  test('a pause asked for shows as "pausing" at once', () => {
    expect(applyActorStatus(running, { node: 'plan', pauseRequested: true }, 0).phase).toBe('pausing');
  });

  test('a stop shows before pipeline.paused / pipeline.cancelled arrive', () => {
    expect(applyActorStatus(running, { pauseRequested: true, stopped: 'paused' }, 0).phase).toBe('paused');
    expect(applyActorStatus(running, { pauseRequested: false, stopped: 'cancelled' }, 0).phase).toBe(
      'cancelled',
    );
  });

  test('the node the actor runs becomes the current one; its node.start then counts the visit', () => {
    const done = fold([
      ev('pipeline.start', undefined, { name: 'release' }),
      ev('node.start', 'plan', { attempt: 1 }),
      ev('node.complete', 'plan', { status: 'success' }),
    ]);
    const next = applyActorStatus(done, { node: 'implement', pauseRequested: false }, 1234);
    expect(next.current).toBe('implement');
    expect(next.nodes['implement']).toMatchObject({ status: 'running', startedAt: 1234, visits: 0 });
    const started = reduceRunState(graph, next, ev('node.start', 'implement', { attempt: 1 }));
    expect(started.nodes['implement']).toMatchObject({ status: 'running', visits: 1 });
    expect(started.nodes['plan']?.next).toBe('implement');
  });

  test('nothing new: the same state (no re-render)', () => {
    expect(applyActorStatus(running, { node: 'plan', pauseRequested: false }, 0)).toBe(running);
  });

  test('a finished run is not reopened', () => {
    const finished = fold([
      ev('pipeline.start', undefined, { name: 'release' }),
      ev('pipeline.finalize', undefined, { status: 'completed', quality: 'clean' }),
    ]);
    expect(applyActorStatus(finished, { pauseRequested: true, stopped: 'cancelled' }, 0)).toBe(finished);
  });
});
