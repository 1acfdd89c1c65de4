import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTimingHook } from '../../src/actors/hooks/timing-hook.js';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { readCheckpoint } from '../../src/run/checkpoint.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

const PIPELINE = `digraph logs {
  start [shape=Mdiamond]
  first [type="note"]
  second [type="note"]
  exit [shape=Msquare]
  start -> first -> second -> exit
}`;

describe('the handler context API in runs', () => {
  it('appendLog entries go into the checkpoint logs and survive a resume', async () => {
    let pause = (): void => {};
    const registry = createDefaultRegistry().register('note', async ({ node, context }) => {
      context.appendLog(`${node.id} ran`);
      context.appendLog({ message: 'detail', node_count: context.get('count', 0) });
      context.set('count', Number(context.get('count', 0)) + 1);
      if (node.id === 'first') pause(); // the run stops after this node
      return { status: 'success' };
    });
    const runDir = join(tempDir(), 'run');
    const first = startPipeline({ source: PIPELINE, runDir, registry, durable: false });
    pause = () => first.pause();
    expect((await first.result).status).toBe('paused');
    const paused = readCheckpoint(join(runDir, 'checkpoint.json'));
    expect(paused.logs.map((l) => [l.node, l.message])).toEqual([
      ['first', 'first ran'],
      ['first', 'detail'],
    ]);
    expect(paused.context['count']).toBe(1);

    const resumed = await resumePipeline({ from: runDir, registry, durable: false }).result;
    expect(resumed.status).toBe('completed');
    expect(resumed.context['count']).toBe(2);
    const final = readCheckpoint(join(runDir, 'checkpoint.json'));
    expect(final.logs.map((l) => [l.node, l.message])).toEqual([
      ['first', 'first ran'],
      ['first', 'detail'],
      ['second', 'second ran'],
      ['second', 'detail'],
    ]);
    expect(final.logs[3]).toMatchObject({ node_count: 1 });
  });

  it('the outcome’s own context_updates win over set(); a throwing handler keeps its log lines', async () => {
    const registry = createDefaultRegistry()
      .register('both', async ({ context }) => {
        context.set('k', 'from set');
        context.set('only', 'set');
        return { status: 'success', context_updates: { k: 'from outcome' } };
      })
      .register('boom', async ({ context }) => {
        context.appendLog('about to fail');
        throw new Error('kaput');
      });
    const run = await runDot(
      `digraph c { start [shape=Mdiamond]; b [type="both"]; x [type="boom"]; exit [shape=Msquare]
        start -> b -> x -> exit }`,
      { registry },
    );
    expect(run.result.context['k']).toBe('from outcome');
    expect(run.result.context['only']).toBe('set');
    const checkpoint = readCheckpoint(join(run.result.runDir, 'checkpoint.json'));
    expect(checkpoint.logs.map((l) => l.message)).toEqual(['about to fail']);
  });

  it('the timing hook example logs one entry per node into the checkpoint', async () => {
    const seen: string[] = [];
    const registry = createDefaultRegistry().addHook(
      createTimingHook({ onTiming: (t) => seen.push(t.node) }),
    );
    const run = await runDot(
      'digraph t { start [shape=Mdiamond]; work [prompt="w"]; exit [shape=Msquare]; start -> work -> exit }',
      { registry },
    );
    expect(seen).toEqual(['start', 'work', 'exit']);
    const checkpoint = readCheckpoint(join(run.result.runDir, 'checkpoint.json'));
    expect(checkpoint.logs.map((l) => [l.node, l['kind']])).toEqual([
      ['start', 'timing'],
      ['work', 'timing'],
      ['exit', 'timing'],
    ]);
  });
});

describe('log entries of parallel branches', () => {
  it('join the run’s log, tagged with their branch', async () => {
    const registry = createDefaultRegistry().register('note', async ({ node, context }) => {
      context.appendLog(`${node.id} ran`);
      return { status: 'success' };
    });
    const dot = `digraph par {
      start [shape=Mdiamond]
      fan [shape=component]
      a [type="note"]
      b [type="note"]
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> fan
      fan -> a -> join
      fan -> b -> join
      join -> exit
    }`;
    const run = await runDot(dot, { registry });
    expect(run.result.status).toBe('completed');
    const checkpoint = readCheckpoint(join(run.result.runDir, 'checkpoint.json'));
    const entries = checkpoint.logs.map((l) => `${l['branch']}/${l.node}: ${l.message}`).sort();
    expect(entries).toEqual(['a/a: a ran', 'b/b: b ran']);
  });
});

describe('log entries of a manager loop child pipeline', () => {
  it('join the run’s log when the manager node is done, tagged with the manager', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'child.dot'),
      'digraph child { start [shape=Mdiamond]; inner [type="note"]; exit [shape=Msquare]; start -> inner -> exit }',
    );
    const parent = `digraph parent {
      start [shape=Mdiamond]
      boss [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="20ms", manager.max_cycles=200]
      exit [shape=Msquare]
      start -> boss -> exit
    }`;
    const file = join(dir, 'parent.dot');
    writeFileSync(file, parent);
    const registry = createDefaultRegistry().register('note', async ({ node, context }) => {
      context.appendLog(`${node.id} ran in the child`);
      return { status: 'success' };
    });
    const run = await runDot(parent, { file, registry });
    expect(run.result.status).toBe('completed');
    const checkpoint = readCheckpoint(join(run.result.runDir, 'checkpoint.json'));
    expect(checkpoint.logs).toEqual([
      { node: 'inner', parent: 'boss', time: expect.any(String), message: 'inner ran in the child' },
    ]);
  });
});

describe('internal.retry_count.<node>', () => {
  it('counts the retries of the node’s visit, as handlers and conditions see it', async () => {
    const seenCounts: unknown[] = [];
    let calls = 0;
    const registry = createDefaultRegistry().register('flaky', async ({ context }) => {
      seenCounts.push(context.get('internal.retry_count.f'));
      calls += 1;
      return calls < 3 ? { status: 'retry', failure_reason: 'not yet' } : { status: 'success' };
    });
    const run = await runDot(
      `digraph r { start [shape=Mdiamond]; f [type="flaky", max_retries=3]; exit [shape=Msquare]
        start -> f -> exit }`,
      { registry, random: () => 0 },
    );
    expect(run.result.status).toBe('completed');
    expect(seenCounts).toEqual([undefined, 1, 2]);
    expect(run.result.context['internal.retry_count.f']).toBe(2);
  });

  it('is absent for nodes that never retried', async () => {
    const run = await runDot(
      'digraph r { start [shape=Mdiamond]; w [prompt="w"]; exit [shape=Msquare]; start -> w -> exit }',
    );
    expect(Object.keys(run.result.context).filter((k) => k.startsWith('internal.retry_count'))).toEqual([]);
  });
});
