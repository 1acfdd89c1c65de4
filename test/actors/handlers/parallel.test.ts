import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BranchResult, ContextValues, HandlerServices } from '../../../src/actors/handler-types.js';
import { parallelHandler } from '../../../src/actors/handlers/parallel.js';
import type {
  BranchCheckpoint,
  BranchCheckpointStore,
} from '../../../src/actors/parallel/branch-checkpoints.js';
import type { ParallelResult } from '../../../src/actors/parallel/parallel-result.js';
import type { NodeAttrs } from '../../../src/compiler/ir.js';
import type { StageStatus } from '../../../src/compiler/outcome.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeEdge, makeGraph, makeNode } from '../helpers/graph-builders.js';

interface Script {
  status: StageStatus;
  delayMs?: number;
  updates?: ContextValues;
  score?: number;
  /** Ignore the abort signal (a badly behaved branch). */
  stubborn?: boolean;
  throws?: string;
}

/** A fake engine: each branch waits its delay (abortably) then reports its scripted outcome. */
function fakeBranches(scripts: Record<string, Script>) {
  let running = 0;
  const stats = {
    maxRunning: 0,
    started: [] as string[],
    aborted: [] as string[],
    contexts: [] as ContextValues[],
    /** Each branch's start and end on the (fake) clock. */
    spans: {} as Record<string, { start: number; end?: number }>,
  };
  const runBranch: HandlerServices['runBranch'] = ({ branchId, startNodeId, context, signal }) => {
    const script = scripts[startNodeId]!;
    stats.started.push(branchId);
    stats.contexts.push(context);
    stats.spans[branchId] = { start: Date.now() };
    running++;
    stats.maxRunning = Math.max(stats.maxRunning, running);
    return new Promise<BranchResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        running--;
        const span = stats.spans[branchId];
        if (span) span.end = Date.now();
        if (script.throws) return reject(new Error(script.throws));
        resolve({
          branchId,
          startNodeId,
          outcome: { status: script.status, ...(script.score === undefined ? {} : { score: script.score }) },
          context: { ...context, ...script.updates },
          updates: script.updates ?? {},
          stoppedAt: 'join',
          completedNodes: [startNodeId],
        });
      }, script.delayMs ?? 0);
      if (!script.stubborn) {
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          running--;
          stats.aborted.push(branchId);
          reject(signal.reason);
        });
      }
    });
  };
  return { runBranch, stats };
}

function branchesInMemory(): BranchCheckpointStore {
  const kept = new Map<string, BranchCheckpoint>();
  return {
    open: () => ({
      save: async (checkpoint) => {
        kept.set(checkpoint.record.branch_id, checkpoint);
      },
      prepare: () => {},
      load: () => new Map(kept),
      close: () => {},
      clear: () => kept.clear(),
    }),
  };
}

// Branch delays run on fake timers: what is tested is the scheduling (overlap, limits, cancellation),
// which virtual time measures exactly, without the flakiness of wall-clock thresholds on a busy machine.
describe('parallelHandler', () => {
  const cleanups: Array<() => void> = [];
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  async function run(scripts: Record<string, Script>, attrs: NodeAttrs = {}, signal?: AbortSignal) {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const targets = Object.keys(scripts);
    const node = makeNode('fan', { shape: 'component', ...attrs });
    const graph = makeGraph({
      nodes: [node, ...targets.map((t) => makeNode(t)), makeNode('join', { shape: 'tripleoctagon' })],
      edges: [...targets.map((t) => makeEdge('fan', t)), ...targets.map((t) => makeEdge(t, 'join'))],
    });
    const { runBranch, stats } = fakeBranches(scripts);
    // Finished branches kept in memory: the scheduling is what is tested here, on virtual time, which a
    // write on the run's lane (the thread pool, awaited before a branch counts as finished) would not follow.
    const services = createFakeServices({ runBranch, branchCheckpoints: branchesInMemory() });
    const started = Date.now();
    const pending = parallelHandler(
      makeInput({
        node,
        graph,
        runDir,
        services,
        context: { shared: { n: 1 } },
        ...(signal ? { signal } : {}),
      }),
    );
    await vi.runAllTimersAsync();
    const outcome = await pending;
    const results = outcome.context_updates?.['parallel.results'] as ParallelResult[];
    return { outcome, results, stats, events: services.events, elapsed: Date.now() - started };
  }

  it.each<[string, NodeAttrs, Record<string, Script>, StageStatus]>([
    ['wait_all: all succeed', {}, { a: { status: 'success' }, b: { status: 'success' } }, 'success'],
    ['wait_all: one fails', {}, { a: { status: 'success' }, b: { status: 'fail' } }, 'partial_success'],
    ['wait_all: all fail', {}, { a: { status: 'fail' }, b: { status: 'fail' } }, 'fail'],
    [
      'wait_all/ignore: one fails',
      { error_policy: 'ignore' },
      { a: { status: 'success' }, b: { status: 'fail' } },
      'success',
    ],
    [
      'first_success: one succeeds',
      { join_policy: 'first_success' },
      { a: { status: 'fail' }, b: { status: 'success' } },
      'success',
    ],
    [
      'first_success: none succeeds',
      { join_policy: 'first_success' },
      { a: { status: 'fail' }, b: { status: 'fail' } },
      'fail',
    ],
    [
      'k_of_n 2: two succeed',
      { join_policy: 'k_of_n', join_k: 2 },
      { a: { status: 'success' }, b: { status: 'fail' }, c: { status: 'success' } },
      'success',
    ],
    [
      'k_of_n 2: one succeeds',
      { join_policy: 'k_of_n', join_k: 2 },
      { a: { status: 'success' }, b: { status: 'fail' }, c: { status: 'fail' } },
      'fail',
    ],
    [
      'a thrown branch error is a failure',
      {},
      { a: { status: 'success' }, b: { status: 'success', throws: 'engine bug' } },
      'partial_success',
    ],
  ])('%s → %s', async (_name, attrs, scripts, status) => {
    const { outcome } = await run(scripts, attrs);
    expect(outcome.status).toBe(status);
  });

  it('records results, merges updates under the branch id and routes to the fan-in', async () => {
    const { outcome, results, stats } = await run({
      a: { status: 'success', updates: { draft: 'A' }, score: 0.9 },
      b: { status: 'fail', updates: { draft: 'B' } },
    });
    expect(results).toEqual([
      { branch_id: 'a', status: 'success', score: 0.9, stopped_at: 'join' },
      { branch_id: 'b', status: 'fail', stopped_at: 'join' },
    ]);
    expect(outcome.context_updates).toMatchObject({ 'a.draft': 'A', 'b.draft': 'B' });
    expect(outcome.suggested_next_ids).toEqual(['join']);
    expect(outcome.next_node).toBe('join');
    // Every branch is asked to start from the same values; `runBranch` gives each its own deep copy
    // (test/machines/branch-updates.test.ts).
    expect(stats.contexts).toEqual([{ shared: { n: 1 } }, { shared: { n: 1 } }]);
  });

  it('runs branches concurrently: three 300 ms branches overlap and the node takes 300 ms', async () => {
    const { outcome, elapsed, stats } = await run({
      a: { status: 'success', delayMs: 300 },
      b: { status: 'success', delayMs: 300 },
      c: { status: 'success', delayMs: 300 },
    });
    expect(outcome.status).toBe('success');
    expect(stats.maxRunning).toBe(3);
    // Every branch started before any ended: the three intervals overlap.
    const spans = Object.values(stats.spans);
    expect(spans).toHaveLength(3);
    expect(Math.max(...spans.map((s) => s.start))).toBeLessThan(Math.min(...spans.map((s) => s.end ?? 0)));
    expect(elapsed).toBe(300);
  });

  it('never runs more than max_parallel at once', async () => {
    const scripts = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e'].map((id) => [id, { status: 'success' as const, delayMs: 40 }]),
    );
    const { stats, outcome } = await run(scripts, { max_parallel: 2 });
    expect(stats.maxRunning).toBe(2);
    expect(stats.started).toHaveLength(5);
    expect(outcome.status).toBe('success');
  });

  it('first_success cancels the others once one succeeds', async () => {
    const { outcome, results, stats, elapsed } = await run(
      {
        a: { status: 'success', delayMs: 20 },
        b: { status: 'success', delayMs: 5000 },
        c: { status: 'success', delayMs: 5000 },
      },
      { join_policy: 'first_success' },
    );
    expect(outcome.status).toBe('success');
    // The slow branches are cancelled the moment `a` succeeds, not when they would have ended.
    expect(elapsed).toBe(20);
    expect(stats.aborted.sort()).toEqual(['b', 'c']);
    expect(results.map((r) => [r.branch_id, r.status, r.cancelled ?? false])).toEqual([
      ['a', 'success', false],
      ['b', 'skipped', true],
      ['c', 'skipped', true],
    ]);
  });

  it('fail_fast cancels running branches and never starts the rest', async () => {
    const { outcome, results, stats } = await run(
      {
        a: { status: 'fail', delayMs: 20 },
        b: { status: 'success', delayMs: 5000 },
        c: { status: 'success' },
      },
      { error_policy: 'fail_fast', max_parallel: 2 },
    );
    expect(outcome.status).toBe('fail');
    expect(outcome.failure_reason).toMatch(/fail_fast/);
    // The failed join goes on to the fan-in, which fails in turn and routes it by its own edges.
    expect(outcome.next_node).toBe('join');
    expect(outcome.context_updates).toMatchObject({
      'parallel.outcome': 'fail',
      'parallel.failure_reason': expect.stringMatching(/fail_fast/),
    });
    expect(stats.started).toEqual(['a', 'b']);
    expect(results[2]).toMatchObject({ branch_id: 'c', status: 'skipped', cancelled: true });
    expect(results[2]?.failure_reason).toMatch(/not started/);
  });

  it.each([
    { attr: 'retry_target', target: 'a', next: undefined },
    { attr: 'fallback_retry_target', target: 'a', next: undefined },
    { attr: 'retry_target', target: 'nowhere', next: 'join' },
  ])('a failed join with $attr=$target on the node: next_node $next', async ({ attr, target, next }) => {
    const { outcome } = await run({ a: { status: 'fail' }, b: { status: 'fail' } }, { [attr]: target });
    expect(outcome.status).toBe('fail');
    expect(outcome.next_node).toBe(next);
  });

  it('continue lets every branch finish after a failure', async () => {
    const { outcome, stats } = await run({ a: { status: 'fail' }, b: { status: 'success', delayMs: 50 } });
    expect(outcome.status).toBe('partial_success');
    expect(stats.aborted).toEqual([]);
  });

  it('aborting the node aborts every branch and FAILs as cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user cancel')), 30);
    const { outcome, stats, elapsed } = await run(
      { a: { status: 'success', delayMs: 5000 }, b: { status: 'success', delayMs: 5000 } },
      {},
      controller.signal,
    );
    expect(outcome).toMatchObject({ status: 'fail', failure_reason: 'cancelled' });
    expect(stats.aborted.sort()).toEqual(['a', 'b']);
    expect(elapsed).toBe(30);
  });

  it('a node aborted before it runs starts no branch and FAILs as cancelled', async () => {
    const { outcome, results, stats } = await run(
      { a: { status: 'success', delayMs: 50 }, b: { status: 'success', delayMs: 50 } },
      {},
      AbortSignal.abort(new Error('gone')),
    );
    expect(outcome).toMatchObject({ status: 'fail', failure_reason: 'cancelled' });
    expect(stats.started).toEqual([]);
    expect(results.map((r) => [r.branch_id, r.status, r.cancelled])).toEqual([
      ['a', 'skipped', true],
      ['b', 'skipped', true],
    ]);
  });

  it('emits parallel.start, branch start/complete and parallel.complete', async () => {
    const { events } = await run({ a: { status: 'success' }, b: { status: 'fail' } });
    const kinds = events.map((e) => e.kind);
    expect(kinds[0]).toBe('parallel.start');
    expect(kinds.at(-1)).toBe('parallel.complete');
    expect(kinds.filter((k) => k === 'parallel.branch.start')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'parallel.branch.complete')).toHaveLength(2);
    expect(events[0]?.data).toMatchObject({ branches: ['a', 'b'], join_policy: 'wait_all', max_parallel: 4 });
    expect(events.at(-1)?.data).toMatchObject({
      status: 'partial_success',
      succeeded: 1,
      failed: 1,
      total: 2,
    });
  });

  it('keeps two edges to the same node as two branches with distinct ids', async () => {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const node = makeNode('fan', { shape: 'component' });
    const graph = makeGraph({
      nodes: [node, makeNode('a'), makeNode('join', { shape: 'tripleoctagon' })],
      edges: [makeEdge('fan', 'a'), makeEdge('fan', 'a'), makeEdge('a', 'join')],
    });
    const { runBranch, stats } = fakeBranches({ a: { status: 'success', updates: { k: 1 } } });
    const pending = parallelHandler(
      makeInput({ node, graph, runDir, services: createFakeServices({ runBranch }) }),
    );
    await vi.runAllTimersAsync();
    const outcome = await pending;
    expect(stats.started).toEqual(['a', 'a#2']);
    expect(outcome.context_updates).toMatchObject({ 'a.k': 1, 'a#2.k': 1 });
  });

  it('FAILs with a reason for a bad policy or no edges', async () => {
    expect((await run({ a: { status: 'success' } }, { join_policy: 'quorum' })).outcome).toEqual({
      status: 'fail',
      failure_reason: 'unknown join_policy "quorum"',
    });
    expect((await run({})).outcome).toEqual({
      status: 'fail',
      failure_reason: 'parallel node has no outgoing edges',
    });
  });
});
