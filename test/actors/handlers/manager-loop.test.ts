import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  ChildPipelineHandle,
  ChildPipelineStatus,
  ContextValues,
} from '../../../src/actors/handler-types.js';
import { managerLoopHandler } from '../../../src/actors/handlers/manager-loop.js';
import type { GraphAttrs, NodeAttrs } from '../../../src/compiler/ir.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeGraph, makeNode } from '../helpers/graph-builders.js';

/** A child whose status follows a script: one entry per status() call, the last repeating. */
function scriptedChild(script: ChildPipelineStatus[]) {
  let calls = 0;
  let resolveDone!: (status: ChildPipelineStatus) => void;
  const done = new Promise<ChildPipelineStatus>((resolve) => {
    resolveDone = resolve;
  });
  const log = {
    steered: [] as string[],
    cancelled: 0,
    requests: [] as Array<{ dotFile: string; context: ContextValues }>,
  };
  const handle: ChildPipelineHandle = {
    status: () => {
      const status = script[Math.min(calls++, script.length - 1)]!;
      if (status.state !== 'running') resolveDone(status);
      return status;
    },
    steer: (message) => log.steered.push(message),
    done,
    cancel: () => {
      log.cancelled++;
    },
  };
  return { handle, log, finish: resolveDone };
}

const running = (node: string, context: ContextValues = {}): ChildPipelineStatus => ({
  state: 'running',
  currentNode: node,
  completedNodes: [],
  context,
});

describe('managerLoopHandler', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  /** Runs `start` on fake timers to the end: virtual time measures the waits exactly. */
  async function onFakeTimers<T>(start: () => Promise<T>): Promise<{ result: T; elapsed: number }> {
    vi.useFakeTimers();
    const began = Date.now();
    const pending = start();
    await vi.runAllTimersAsync();
    const result = await pending;
    return { result, elapsed: Date.now() - began };
  }

  async function run(
    script: ChildPipelineStatus[],
    attrs: NodeAttrs = {},
    graphAttrs: GraphAttrs = { 'stack.child_dotfile': 'child.dot' },
    signal?: AbortSignal,
    onChild?: (child: ReturnType<typeof scriptedChild>) => void,
  ) {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const child = scriptedChild(script);
    onChild?.(child);
    const services = createFakeServices({
      startChildPipeline: (request) => {
        child.log.requests.push({ dotFile: request.dotFile, context: request.context });
        return child.handle;
      },
    });
    const node = makeNode('manager', { shape: 'house', 'manager.poll_interval': 5, ...attrs });
    const graph = makeGraph({ nodes: [node], attrs: graphAttrs, file: `${runDir}/pipelines/main.dot` });
    const outcome = await managerLoopHandler(
      makeInput({ node, graph, runDir, services, context: { goal: 'g' }, ...(signal ? { signal } : {}) }),
    );
    return { outcome, log: child.log, events: services.events, runDir };
  }

  it.each<[string, ChildPipelineStatus[], NodeAttrs, string, RegExp, boolean]>([
    [
      'child completes',
      [running('a'), running('b'), { state: 'completed', completedNodes: ['a', 'b'], context: {} }],
      {},
      'success',
      /Child completed after 3 cycles/,
      false,
    ],
    [
      'child fails',
      [
        running('a'),
        {
          state: 'failed',
          completedNodes: ['a'],
          context: {},
          outcome: { status: 'fail', failure_reason: 'tests red' },
        },
      ],
      {},
      'fail',
      /Child failed: tests red/,
      false,
    ],
    [
      'child cancelled',
      [{ state: 'cancelled', completedNodes: [], context: {} }],
      {},
      'fail',
      /Child cancelled/,
      false,
    ],
    [
      'stop condition on the child context',
      [running('a'), running('b', { 'review.done': 'yes' })],
      { 'manager.stop_condition': 'review.done=yes' },
      'success',
      /Stop condition met/,
      true,
    ],
    [
      'stop condition on stack.child.current_node',
      [running('a'), running('deploy')],
      { 'manager.stop_condition': 'stack.child.current_node=deploy' },
      'success',
      /Stop condition met/,
      true,
    ],
    ['max cycles', [running('a')], { 'manager.max_cycles': 3 }, 'fail', /Max cycles exceeded \(3\)/, true],
    [
      'a bad stop condition',
      [running('a')],
      { 'manager.stop_condition': 'a == b' },
      'fail',
      /manager.stop_condition/,
      true,
    ],
  ])('%s', async (_name, script, attrs, status, message, cancelled) => {
    const { outcome, log } = await run(script, attrs);
    expect(outcome.status).toBe(status);
    expect(outcome.notes ?? outcome.failure_reason).toMatch(message);
    expect(log.cancelled > 0).toBe(cancelled);
  });

  it('resolves the child dotfile relative to the graph file, node attribute first', async () => {
    const a = await run([{ state: 'completed', completedNodes: [], context: {} }]);
    expect(a.log.requests[0]?.dotFile).toBe(`${a.runDir}/pipelines/child.dot`);
    expect(a.log.requests[0]?.context).toEqual({ goal: 'g' });
    const b = await run([{ state: 'completed', completedNodes: [], context: {} }], {
      'stack.child_dotfile': '../sub/x.dot',
    });
    expect(b.log.requests[0]?.dotFile).toBe(`${b.runDir}/sub/x.dot`);
  });

  it('writes manager.* and stack.child.* telemetry to the context', async () => {
    const { outcome } = await run([
      running('a'),
      { state: 'completed', completedNodes: ['a', 'z'], context: {}, outcome: { status: 'success' } },
    ]);
    expect(outcome.context_updates).toEqual({
      'manager.cycle': 2,
      'manager.child.state': 'completed',
      'manager.child.current_node': '',
      'manager.child.completed_nodes': ['a', 'z'],
      'stack.child.status': 'completed',
      'stack.child.outcome': 'success',
      'stack.child.current_node': '',
    });
  });

  it('steers once per child node when steer is an action, and emits cycles when observing', async () => {
    const { log, events } = await run(
      [running('a'), running('a'), running('b'), { state: 'completed', completedNodes: [], context: {} }],
      { 'manager.actions': 'observe,steer,wait', prompt: 'Focus on {goal}' },
    );
    expect(log.steered).toEqual(['Focus on g', 'Focus on g']);
    expect(events.filter((e) => e.kind === 'manager.cycle')).toHaveLength(4);
    expect(events.filter((e) => e.kind === 'manager.steer').map((e) => e.data['child_node'])).toEqual([
      'a',
      'b',
    ]);
  });

  it('does not steer or emit cycles unless asked', async () => {
    const { log, events } = await run(
      [running('a'), { state: 'completed', completedNodes: [], context: {} }],
      {
        'manager.actions': 'wait',
        prompt: 'x',
      },
    );
    expect(log.steered).toEqual([]);
    expect(events).toEqual([]);
  });

  it('waits the poll interval between cycles', async () => {
    const { elapsed } = await onFakeTimers(() =>
      run([running('a'), running('a'), running('a')], {
        'manager.poll_interval': 60,
        'manager.max_cycles': 3,
      }),
    );
    // Three cycles, two waits between them.
    expect(elapsed).toBe(120);
  });

  it.each<[string, NodeAttrs, GraphAttrs, string]>([
    ['no child dotfile', {}, {}, 'stack.child_dotfile is not set on the node or the graph'],
    [
      'an unknown action',
      { 'manager.actions': 'observe,dance' },
      { 'stack.child_dotfile': 'c.dot' },
      'unknown manager action "dance"',
    ],
  ])('FAILs with %s', async (_name, attrs, graphAttrs, reason) => {
    const { outcome } = await run([running('a')], attrs, graphAttrs);
    expect(outcome).toEqual({ status: 'fail', failure_reason: reason });
  });

  it('wakes up as soon as the child finishes instead of sleeping out the interval', async () => {
    const done: ChildPipelineStatus = { state: 'completed', completedNodes: [], context: {} };
    const { result, elapsed } = await onFakeTimers(() =>
      run([running('a'), done], { 'manager.poll_interval': 10_000 }, undefined, undefined, (child) =>
        setTimeout(() => child.finish(done), 50),
      ),
    );
    expect(result.outcome.status).toBe('success');
    expect(elapsed).toBe(50);
  });

  it('cancels the child when aborted', async () => {
    const controller = new AbortController();
    const { result, elapsed } = await onFakeTimers(() => {
      setTimeout(() => controller.abort(), 50);
      return run([running('a')], { 'manager.poll_interval': 10_000 }, undefined, controller.signal);
    });
    expect(result.outcome).toMatchObject({ status: 'fail', failure_reason: 'cancelled' });
    expect(result.log.cancelled).toBe(1);
    expect(elapsed).toBe(50);
  });
});
