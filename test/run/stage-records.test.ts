import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { compile } from '../../src/compiler/compile.js';
import type { Outcome } from '../../src/compiler/outcome.js';
import { newestJournalCheckpoint } from '../../src/run/checkpoint-journal.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import type { PipelineRun } from '../../src/run/run-types.js';
import { FileStageStore, restoreStageRecords } from '../../src/run/stage-records.js';
import { WriteLane } from '../../src/shared/write-lane.js';
import { ensureDist, ROOT } from '../helpers/ensure-dist.js';
import { readJson, runDot, tempDir } from '../helpers/run-helpers.js';

const BURST = `digraph burst {
  start [shape=Mdiamond]
  c1 [shape=diamond]
  c2 [shape=diamond]
  c3 [shape=diamond]
  look [type="look"]
  c4 [shape=diamond]
  exit [shape=Msquare]
  start -> c1 -> c2 -> c3 -> look -> c4 -> exit
}`;

const statusOf = (runDir: string, node: string) => readJson(join(runDir, node, 'status.json'));

/** A routing node's visit of `runDir`: its record waits for the store's flush. */
const routing = (runDir: string, stageDir: string) => ({ runDir, stageDir, routing: true });
const deferred = (records: FileStageStore, runDir: string, stageDir: string, outcome: Outcome) => {
  records.begin(routing(runDir, stageDir), { scripted: false });
  records.record(routing(runDir, stageDir), outcome, { keepWritten: false });
};

describe('FileStageStore', () => {
  it("makes its run's routing nodes' folders and status.json files when flushed, not before", () => {
    const runDir = tempDir();
    const records = new FileStageStore(runDir);
    deferred(records, runDir, join(runDir, 'a'), { status: 'success', notes: 'first' });
    deferred(records, runDir, join(runDir, 'restart-1', 'b'), { status: 'fail', failure_reason: 'no' });
    expect(existsSync(join(runDir, 'a'))).toBe(false);
    records.flush();
    expect(statusOf(runDir, 'a')).toMatchObject({ outcome: 'success', notes: 'first' });
    expect(statusOf(join(runDir, 'restart-1'), 'b')).toMatchObject({ outcome: 'fail', failure_reason: 'no' });
  });

  it('keeps what it could not write for the next flush', () => {
    const runDir = tempDir();
    const records = new FileStageStore(runDir);
    // A file where the folder must go: the first flush cannot make it.
    writeFileSync(join(runDir, 'a'), 'in the way');
    deferred(records, runDir, join(runDir, 'a'), { status: 'success' });
    deferred(records, runDir, join(runDir, 'b'), { status: 'success' });
    expect(() => records.flush()).toThrow(/EEXIST|ENOTDIR/);
    expect(existsSync(join(runDir, 'b'))).toBe(false);
    // Gone, so the retry goes through, in order.
    rmSync(join(runDir, 'a'));
    records.flush();
    expect(statusOf(runDir, 'a')['outcome']).toBe('success');
    expect(statusOf(runDir, 'b')['outcome']).toBe('success');
  });

  it("keeps a folder's newest record only, and writes a flush's records in one operation of the lane", async () => {
    const runDir = tempDir();
    const lane = new WriteLane();
    const records = new FileStageStore(runDir, lane);
    // A loop: a, b, a, b, a before the checkpoint.json that flushes them.
    for (const [i, node] of ['a', 'b', 'a', 'b', 'a'].entries())
      deferred(records, runDir, join(runDir, node), { status: 'success', notes: String(i + 1) });
    records.flush();
    expect(lane.pushedCount).toBe(1);
    await lane.settled();
    expect(statusOf(runDir, 'a')['notes']).toBe('5');
    expect(statusOf(runDir, 'b')['notes']).toBe('4');
    records.flush();
    expect(lane.pushedCount).toBe(1);
  });

  it('writes at once what is not its own routing nodes: nodes that do work, other directories', () => {
    const runDir = tempDir();
    const records = new FileStageStore(runDir);
    const work = { runDir, stageDir: join(runDir, 'w'), routing: false };
    records.begin(work, { scripted: false });
    expect(existsSync(join(runDir, 'w'))).toBe(true);
    records.record(work, { status: 'success' }, { keepWritten: false });
    const branch = join(runDir, 'fan', 'branches', 'x');
    deferred(records, branch, join(branch, 'c'), { status: 'success' });
    expect(statusOf(runDir, 'w')['outcome']).toBe('success');
    expect(statusOf(branch, 'c')['outcome']).toBe('success');
  });

  it("keeps a status.json the handler wrote when asked to, and removes an earlier visit's before the next", () => {
    const runDir = tempDir();
    const records = new FileStageStore(runDir);
    const work = { runDir, stageDir: join(runDir, 'w'), routing: false };
    records.begin(work, { scripted: false });
    writeFileSync(join(runDir, 'w', 'status.json'), JSON.stringify({ outcome: 'partial_success' }));
    records.record(work, { status: 'success' }, { keepWritten: true });
    expect(statusOf(runDir, 'w')['outcome']).toBe('partial_success');
    records.begin(work, { scripted: false });
    expect(existsSync(join(runDir, 'w', 'status.json'))).toBe(false);
  });
});

describe('routing nodes’ stage records in a run (docs/decisions/0470-a-runs-records-go-through-one-write-lane.md)', () => {
  it('are on disk whenever checkpoint.json names their nodes, and before a node that does work starts', async () => {
    const runDir = join(tempDir(), 'run');
    const missing: string[] = [];
    const check = (when: string) => {
      const path = join(runDir, 'checkpoint.json');
      if (!existsSync(path)) return;
      const checkpoint = JSON.parse(readFileSync(path, 'utf8')) as { completed_nodes: string[] };
      for (const node of checkpoint.completed_nodes)
        if (!existsSync(join(runDir, node, 'status.json'))) missing.push(`${node} at ${when}`);
    };
    let seenByLook: boolean[] = [];
    const registry = createDefaultRegistry().register('look', async () => {
      seenByLook = ['start', 'c1', 'c2', 'c3'].map((n) => existsSync(join(runDir, n, 'status.json')));
      return { status: 'success' };
    });
    const run = await runDot(BURST, {
      runDir,
      registry,
      onEvent: (e) => check(`${e.kind} ${e.node_id ?? ''}`),
    });
    expect(run.result.status).toBe('completed');
    expect(missing).toEqual([]);
    expect(seenByLook).toEqual([true, true, true, true]);
    // Every node has its record when the run is over, as the built-in handlers said it.
    expect(statusOf(runDir, 'start')).toMatchObject({
      outcome: 'success',
      notes: 'Pipeline started at start',
    });
    expect(statusOf(runDir, 'c4')).toMatchObject({
      outcome: 'success',
      notes: 'Conditional node evaluated: c4',
    });
    expect(statusOf(runDir, 'exit')).toMatchObject({
      outcome: 'success',
      notes: 'Pipeline reached exit node "exit"',
    });
  });

  it('are written at once for a routing type the registry overrides: that handler may use its folder', async () => {
    const registry = createDefaultRegistry().register('conditional', async ({ stageDir }) => {
      writeFileSync(join(stageDir, 'note.txt'), 'mine');
      return { status: 'success', notes: 'custom conditional' };
    });
    const run = await runDot(BURST.replace('look [type="look"]', 'look [shape=diamond]'), { registry });
    expect(run.result.status).toBe('completed');
    expect(readFileSync(join(run.runDir, 'c2', 'note.txt'), 'utf8')).toBe('mine');
    expect(statusOf(run.runDir, 'c2')['notes']).toBe('custom conditional');
  });

  it('of a visit over max_visits say it failed, like any other node', async () => {
    const run = await runDot(
      `digraph v { start [shape=Mdiamond]; c [shape=diamond, max_visits=1]; w [type="look"]; exit [shape=Msquare]
        start -> c -> w
        w -> c [condition="outcome=success"]
        c -> exit [condition="outcome=fail"] }`,
      { registry: createDefaultRegistry().register('look', async () => ({ status: 'success' })) },
    );
    expect(statusOf(run.runDir, 'c')).toMatchObject({ outcome: 'fail' });
    expect(String(statusOf(run.runDir, 'c')['failure_reason'])).toMatch(/max_visits/);
  });
});

describe('routing nodes’ stage records, where the run meets them', () => {
  it('are on disk when a handler that overrides exit starts', async () => {
    const runDir = join(tempDir(), 'run');
    let seenByExit: boolean[] = [];
    const registry = createDefaultRegistry().register('exit', async () => {
      seenByExit = ['start', 'c1', 'c2'].map((n) => existsSync(join(runDir, n, 'status.json')));
      return { status: 'success' };
    });
    await runDot(
      'digraph x { start [shape=Mdiamond]; c1 [shape=diamond]; c2 [shape=diamond]; exit [shape=Msquare]; start -> c1 -> c2 -> exit }',
      { runDir, registry },
    );
    expect(seenByExit).toEqual([true, true, true]);
  });

  it('are all on disk when the run says it is over, however it ends', async () => {
    const source =
      'digraph x { start [shape=Mdiamond]; c1 [shape=diamond]; c2 [shape=diamond]; exit [shape=Msquare]; start -> c1 -> c2 -> exit }';
    // Completed, and cancelled in the middle of the burst (c2 next).
    for (const [kind, nodes] of [
      ['pipeline.complete', ['start', 'c1', 'c2', 'exit']],
      ['pipeline.cancelled', ['start', 'c1']],
    ] as const) {
      const runDir = join(tempDir(), 'run');
      let atEnd: boolean[] = [];
      const run: PipelineRun = startPipeline({
        source,
        runDir,
        durable: false,
        onEvent: (e) => {
          if (
            kind === 'pipeline.cancelled' &&
            e.kind === 'checkpoint.saved' &&
            e.data['current_node'] === 'c2'
          )
            run.cancel();
          if (e.kind === kind) atEnd = nodes.map((n) => existsSync(join(runDir, n, 'status.json')));
        },
      });
      await run.result;
      expect(atEnd, kind).toEqual(nodes.map(() => true));
    }
  });

  it('are written at the step in a parallel branch (the branch, not the run, owns its folders)', async () => {
    const seen: boolean[] = [];
    const registry = createDefaultRegistry().register('look', async ({ stageDir }) => {
      seen.push(existsSync(join(dirname(stageDir), 'pick', 'status.json')));
      return { status: 'success' };
    });
    const run = await runDot(
      `digraph p { start [shape=Mdiamond]; fan [shape=component]; join [shape=tripleoctagon]; exit [shape=Msquare]
        pick [shape=diamond]; look [type="look"]
        start -> fan -> pick -> look -> join -> exit }`,
      { registry },
    );
    expect(run.result.status).toBe('completed');
    expect(seen).toEqual([true]);
  });
});

describe('restoreStageRecords', () => {
  const graph = compile(BURST, { customHandlerTypes: ['look'] }).graph;

  it('writes the missing records of completed routing nodes only, from the checkpoint', () => {
    const runDir = tempDir();
    mkdirSync(join(runDir, 'start'));
    writeFileSync(join(runDir, 'start', 'status.json'), '{"outcome":"success","notes":"kept"}');
    const restored = restoreStageRecords(runDir, graph, createDefaultRegistry(), {
      completedNodes: ['start', 'c1', 'c2', 'look'],
      nodeOutcomes: { c2: 'fail' },
      restarts: 0,
    });
    expect(restored).toEqual(['c1', 'c2']);
    expect(statusOf(runDir, 'start')['notes']).toBe('kept');
    expect(statusOf(runDir, 'c1')).toMatchObject({ outcome: 'success' });
    expect(String(statusOf(runDir, 'c1')['notes'])).toMatch(/recorded on resume/);
    expect(statusOf(runDir, 'c2')['outcome']).toBe('fail');
    // A node that does work writes its own record: nothing is made up for it.
    expect(existsSync(join(runDir, 'look'))).toBe(false);
  });

  it('writes under the current restart folder', () => {
    const runDir = tempDir();
    restoreStageRecords(runDir, graph, createDefaultRegistry(), { completedNodes: ['c1'], restarts: 2 });
    expect(existsSync(join(runDir, 'restart-2', 'c1', 'status.json'))).toBe(true);
  });
});

/**
 * Run `source` in a child process that SIGKILLs itself when `killWhen` (JS over the event `e`) holds,
 * or, with `afterWrite`, when `killWhen` (JS over `journal`, the newest checkpoint the journal holds)
 * holds after one of the run's queued writes is done: a crash between two writes of one batch.
 */
function runUntilKilled(source: string, runDir: string, killWhen: string, afterWrite = false) {
  ensureDist();
  const dist = (file: string) => JSON.stringify(join(ROOT, 'dist', file));
  const script = `
    import { createDefaultRegistry, startPipeline } from ${dist('index.js')};
    import { WriteLane } from ${dist('shared/write-lane.js')};
    import { newestJournalCheckpoint } from ${dist('run/checkpoint-journal.js')};
    if (${afterWrite}) {
      const push = WriteLane.prototype.push;
      WriteLane.prototype.push = function (what, op) {
        return push.call(this, what, async (batch) => {
          await op(batch);
          const journal = newestJournalCheckpoint(${JSON.stringify(runDir)});
          if (journal && (${killWhen})) process.kill(process.pid, 'SIGKILL');
        });
      };
    }
    const registry = createDefaultRegistry().register('look', async () => ({ status: 'success' }));
    let seen = 0;
    const run = startPipeline({
      source: ${JSON.stringify(source)},
      runDir: ${JSON.stringify(runDir)},
      registry,
      onEvent: (e) => { if (!${afterWrite} && (${killWhen})) process.kill(process.pid, 'SIGKILL'); },
    });
    await run.result;
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

const resumeLooking = (runDir: string) =>
  resumePipeline({
    from: runDir,
    registry: createDefaultRegistry().register('look', async () => ({ status: 'success' })),
    durable: false,
  }).result;

describe('a run killed in the middle of a routing burst', () => {
  it('resumes with every completed node recorded', async () => {
    const runDir = join(tempDir(), 'run');
    // Right after the journal took c2 -> c3: c1 and c2 are completed and their records still wait for
    // checkpoint.json.
    const child = runUntilKilled(BURST, runDir, "journal.current_node === 'c3'", true);
    expect(child.signal).toBe('SIGKILL');
    const journaled = newestJournalCheckpoint(runDir) as { current_node: string; completed_nodes: string[] };
    expect(journaled.current_node).toBe('c3');
    expect(journaled.completed_nodes).toEqual(['start', 'c1', 'c2']);
    expect(existsSync(join(runDir, 'c1', 'status.json'))).toBe(false);

    expect((await resumeLooking(runDir)).status).toBe('completed');
    for (const node of ['start', 'c1', 'c2', 'c3', 'look', 'c4', 'exit'])
      expect(statusOf(runDir, node)['outcome'], node).toBe('success');
    expect(String(statusOf(runDir, 'c2')['notes'])).toMatch(/recorded on resume/);
    expect(statusOf(runDir, 'c3')['notes']).toBe('Conditional node evaluated: c3');
  }, 60_000);

  it('resumes with the record of the last visit, not an earlier one’s', async () => {
    const runDir = join(tempDir(), 'run');
    // c's second visit is over max_visits (fail), its first succeeded; killed as the run reaches exit.
    const source = `digraph v { start [shape=Mdiamond]; c [shape=diamond, max_visits=1]; look [type="look"]; exit [shape=Msquare]
      start -> c -> look
      look -> c [condition="outcome=success"]
      c -> exit [condition="outcome=fail"] }`;
    const child = runUntilKilled(
      source,
      runDir,
      "e.kind === 'checkpoint.saved' && e.data.current_node === 'exit'",
    );
    expect(child.signal).toBe('SIGKILL');
    expect(statusOf(runDir, 'c')['outcome']).toBe('success');
    const result = await resumeLooking(runDir);
    expect(result.failedNodes).toEqual(['c']);
    expect(statusOf(runDir, 'c')['outcome']).toBe('fail');
  }, 60_000);

  it('keeps the records of the nodes a loop_restart forgot', async () => {
    const runDir = join(tempDir(), 'run');
    const source = `digraph lr { start [shape=Mdiamond]; look [type="look"]; c1 [shape=diamond]; c2 [shape=diamond]; exit [shape=Msquare]
      start -> look -> c1 -> c2
      c2 -> look [loop_restart=true, condition="internal.visit_count.c2<2"]
      c2 -> exit [condition="internal.visit_count.c2>=2"] }`;
    // Killed once the journal holds the restart's checkpoint, whose completed list is empty.
    const child = runUntilKilled(
      source,
      runDir,
      'journal.restarts === 1 && journal.completed_nodes.length === 0',
      true,
    );
    expect(child.signal).toBe('SIGKILL');
    expect(newestJournalCheckpoint(runDir)).toMatchObject({ restarts: 1, completed_nodes: [] });
    expect((await resumeLooking(runDir)).status).toBe('completed');
    for (const node of ['c1', 'c2']) {
      expect(statusOf(runDir, node)['outcome'], node).toBe('success');
      expect(statusOf(join(runDir, 'restart-1'), node)['outcome'], node).toBe('success');
    }
  }, 60_000);
});
