import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    requests: [] as Array<{ dotFile: string; context: ContextValues; workingDir?: string }>,
    observed: [] as string[],
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
    more: { context?: ContextValues; workingDir?: string } = {},
  ) {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const child = scriptedChild(script);
    onChild?.(child);
    const services = createFakeServices({
      startChildPipeline: (request) => {
        child.log.requests.push({
          dotFile: request.dotFile,
          context: request.context,
          ...(request.workingDir ? { workingDir: request.workingDir } : {}),
        });
        return child.handle;
      },
      observeChildRun: ({ runDir: observed }) => {
        child.log.observed.push(observed);
        return child.handle;
      },
    });
    const node = makeNode('manager', { shape: 'house', 'manager.poll_interval': 5, ...attrs });
    const graph = {
      ...makeGraph({ nodes: [node], attrs: graphAttrs, file: `${runDir}/pipelines/main.dot` }),
      // The folder above the pipeline's is allowed too, as `--allow-read` or the working directory would.
      readScope: { base: `${runDir}/pipelines`, roots: [runDir], described: 'the test folders' },
    };
    const outcome = await managerLoopHandler(
      makeInput({
        node,
        graph,
        runDir,
        services,
        context: more.context ?? { goal: 'g' },
        ...(signal ? { signal } : {}),
        ...(more.workingDir ? { extra: { workingDir: more.workingDir } } : {}),
      }),
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

  it.each([
    ['climbs out of the read scope', '../../elsewhere/x.dot'],
    ['is absolute', '/etc/x.dot'],
  ])('refuses a child dotfile that %s, starting nothing', async (_what, dotFile) => {
    const { outcome, log } = await run([{ state: 'completed', completedNodes: [], context: {} }], {
      'stack.child_dotfile': dotFile,
    });
    expect(outcome.status).toBe('fail');
    expect(outcome.failure_reason ?? outcome.notes).toMatch(/stack.child_dotfile .* is refused/);
    expect(log.requests).toHaveLength(0);
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

  describe('stack.child_workdir', () => {
    it("starts the child in a directory relative to the run's working directory", async () => {
      const { runDir, cleanup } = makeRunDir();
      cleanups.push(cleanup);
      mkdirSync(join(runDir, 'services', 'api'), { recursive: true });
      const done: ChildPipelineStatus = { state: 'completed', completedNodes: [], context: {} };
      const { log } = await run(
        [done],
        { 'stack.child_workdir': 'services/api' },
        undefined,
        undefined,
        undefined,
        {
          workingDir: runDir,
        },
      );
      expect(log.requests[0]?.workingDir).toBe(join(runDir, 'services', 'api'));
      const graphLevel = await run(
        [done],
        {},
        { 'stack.child_dotfile': 'c.dot', 'stack.child_workdir': runDir },
      );
      expect(graphLevel.log.requests[0]?.workingDir).toBe(runDir);
    });

    it("defaults to the run's own working directory, and FAILs on one that does not exist", async () => {
      const done: ChildPipelineStatus = { state: 'completed', completedNodes: [], context: {} };
      const plain = await run([done]);
      expect(plain.log.requests[0]?.workingDir).toBeUndefined();
      const { outcome, log } = await run(
        [done],
        { 'stack.child_workdir': 'nowhere' },
        undefined,
        undefined,
        undefined,
        {
          workingDir: '/tmp',
        },
      );
      expect(outcome).toEqual({
        status: 'fail',
        failure_reason: 'stack.child_workdir /tmp/nowhere is not a directory',
      });
      expect(log.requests).toEqual([]);
    });
  });

  describe('stack.child_autostart=false', () => {
    it('starts nothing and observes the run directory an earlier node named', async () => {
      const { outcome, log } = await run(
        [running('a'), { state: 'completed', completedNodes: ['a'], context: {} }],
        { 'stack.child_autostart': false },
        {},
        undefined,
        undefined,
        { context: { 'stack.child.run_dir': 'runs/child' }, workingDir: '/work/here' },
      );
      expect(outcome.status).toBe('success');
      expect(log.requests).toEqual([]);
      expect(log.observed).toEqual(['/work/here/runs/child']);
    });

    it.each<[string, ContextValues, string, RegExp]>([
      [
        'completed with success',
        { 'context.stack.child.status': 'completed', 'context.stack.child.outcome': 'success' },
        'success',
        /Child completed/,
      ],
      ['failed', { 'context.stack.child.status': 'failed' }, 'fail', /Child failed/],
      [
        'nothing to observe',
        {},
        'fail',
        /no child to observe: an earlier node must set context key stack\.child\.run_dir/,
      ],
    ])('reads the context.stack.child.* keys it finds: %s', async (_name, context, status, text) => {
      const { outcome, log } = await run(
        [running('never')],
        { 'stack.child_autostart': false },
        {},
        undefined,
        undefined,
        {
          context,
        },
      );
      expect(outcome.status).toBe(status);
      expect(outcome.notes ?? outcome.failure_reason).toMatch(text);
      expect(log.requests).toEqual([]);
      expect(log.observed).toEqual([]);
    });
  });

  describe('steering', () => {
    const steerAttrs = (cooldown: number): NodeAttrs => ({
      'manager.actions': 'observe,steer,wait',
      prompt: 'Focus on {goal}',
      'manager.steer_cooldown': cooldown,
    });
    const at = (node: string, stageDir: string): ChildPipelineStatus => ({ ...running(node), stageDir });

    it("writes the message to steering.md in the stage directory of the child's running node", async () => {
      const { runDir, cleanup } = makeRunDir();
      cleanups.push(cleanup);
      const stage = join(runDir, 'child', 'implement');
      const { events } = await run(
        [at('implement', stage), { state: 'completed', completedNodes: [], context: {} }],
        steerAttrs(0),
      );
      expect(readFileSync(join(stage, 'steering.md'), 'utf8')).toBe('Focus on g\n');
      expect(events.find((e) => e.kind === 'manager.steer')?.data['file']).toBe(join(stage, 'steering.md'));
    });

    it('keeps the cooldown between steers, even when the child moves on', async () => {
      const { runDir, cleanup } = makeRunDir();
      cleanups.push(cleanup);
      const stage = (n: string) => join(runDir, n);
      const script = [at('a', stage('a')), at('b', stage('b')), at('c', stage('c'))];
      const done: ChildPipelineStatus = { state: 'completed', completedNodes: [], context: {} };
      const long = await run([...script, done], steerAttrs(3_600_000));
      expect(long.log.steered).toHaveLength(1);
      expect(long.events.filter((e) => e.kind === 'manager.steer').map((e) => e.data['child_node'])).toEqual([
        'a',
      ]);
      // Poll every 5 ms, cool down 40 ms: b is steered only once 40 ms have passed since a.
      const startedAt = Date.now();
      const steps = [at('a', stage('a')), ...Array.from({ length: 30 }, () => at('b', stage('b'))), done];
      const short = await run(steps, steerAttrs(40));
      expect(short.events.filter((e) => e.kind === 'manager.steer').map((e) => e.data['child_node'])).toEqual(
        ['a', 'b'],
      );
      const cycles = short.events
        .filter((e) => e.kind === 'manager.steer')
        .map((e) => Number(e.data['cycle']));
      expect(cycles[1]).toBeGreaterThan(2);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(40);
    });
  });
});
