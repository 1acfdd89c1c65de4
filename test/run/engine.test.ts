import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { eventOf, eventsOf, readEvents, readJson, runDot, tempDir } from '../helpers/run-helpers.js';
import { runTimersUntilSettled } from '../helpers/run-timers-until-settled.js';

const LINEAR = `digraph linear {
  graph [goal="Ship the feature"]
  start [shape=Mdiamond]
  plan [prompt="Plan $goal"]
  build [prompt="Build it"]
  exit [shape=Msquare]
  start -> plan -> build -> exit
}`;

describe('a linear run', () => {
  it('visits every node in order, ends clean and writes the run directory contract', async () => {
    const run = await runDot(LINEAR);
    expect(run.result.status).toBe('completed');
    expect(run.result.quality).toBe('clean');
    expect(run.visited).toEqual(['start', 'plan', 'build', 'exit']);
    expect(run.kinds[0]).toBe('pipeline.start');
    expect(run.kinds.at(-1)).toBe('pipeline.finalize');
    expect(run.kinds).toContain('pipeline.complete');
    const dir = run.result.runDir;
    for (const f of ['manifest.json', 'pipeline.dot', 'events.jsonl', 'checkpoint.json']) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    expect(readFileSync(join(dir, 'plan', 'prompt.md'), 'utf8')).toContain('Plan Ship the feature');
    expect(existsSync(join(dir, 'plan', 'response.md'))).toBe(true);
    const status = readJson(join(dir, 'build', 'status.json'));
    expect(status['outcome']).toBe('success');
    const checkpoint = readJson(join(dir, 'checkpoint.json'));
    expect(checkpoint['current_node']).toBe('exit');
    expect(checkpoint['status']).toBe('completed');
    expect(checkpoint['completed_nodes']).toEqual(['start', 'plan', 'build', 'exit']);
    expect((checkpoint['context'] as Record<string, unknown>)['graph.goal']).toBe('Ship the feature');
    // The JSONL file holds exactly the events the subscriber saw.
    expect(readEvents(dir).map((e) => e.kind)).toEqual(run.kinds);
  });

  it('emits the events with their data fields', async () => {
    const run = await runDot(LINEAR);
    const start = run.events.find((e) => e.kind === 'pipeline.start');
    expect(start?.data).toMatchObject({ name: 'linear', goal: 'Ship the feature' });
    const complete = eventOf(run.events, 'node.complete', 'build');
    expect(complete?.data.status).toBe('success');
    expect(run.events.find((e) => e.kind === 'pipeline.complete')?.node_id).toBe('exit');
    expect(typeof complete?.data.duration_ms).toBe('number');
    expect(typeof eventOf(run.events, 'pipeline.complete')?.data.duration_ms).toBe('number');
    expect(run.events.at(-1)?.kind).toBe('pipeline.finalize');
    expect(typeof eventOf(run.events, 'pipeline.finalize')?.data.duration_ms).toBe('number');
    for (const e of run.events) expect(typeof e.timestamp).toBe('string');
  });
});

const BRANCHY = `digraph branchy {
  start [shape=Mdiamond]
  implement [prompt="Implement"]
  check [shape=diamond]
  fix [prompt="Fix"]
  exit [shape=Msquare]
  start -> implement -> check
  check -> exit [condition="outcome=success"]
  check -> fix [condition="outcome!=success"]
  fix -> implement
}`;

describe('routing driven by a scenario', () => {
  it.each([
    {
      name: 'success first time',
      scenario: {},
      visited: ['start', 'implement', 'check', 'exit'],
    },
    {
      name: 'a failed check loops through fix',
      scenario: { nodes: { check: [{ outcome: 'fail' }, { outcome: 'success' }] } },
      visited: ['start', 'implement', 'check', 'fix', 'implement', 'check', 'exit'],
    },
  ])('$name', async ({ scenario, visited }) => {
    const run = await runDot(BRANCHY, { scenarioJson: scenario });
    expect(run.visited).toEqual(visited);
    expect(run.result.status).toBe('completed');
  });

  it('a FAIL with no fail edge and no retry target fails the run (quality failed)', async () => {
    const dot = `digraph f { start [shape=Mdiamond]; work [prompt="w"]; exit [shape=Msquare]; start -> work -> exit }`;
    const run = await runDot(dot, {
      scenarioJson: { nodes: { work: [{ outcome: 'fail', failure_reason: 'compiler exploded' }] } },
    });
    expect(run.result.status).toBe('failed');
    expect(run.result.quality).toBe('failed');
    expect(run.result.failure?.reason).toContain('compiler exploded');
    expect(run.events.find((e) => e.kind === 'pipeline.error')?.node_id).toBe('work');
  });

  it('a FAIL jumps to the node retry_target; repaired there, the run ends clean with the node recovered', async () => {
    const dot = `digraph f { start [shape=Mdiamond]; prep [prompt="p"]; work [prompt="w", retry_target="prep"]; exit [shape=Msquare]; start -> prep -> work -> exit }`;
    const run = await runDot(dot, {
      scenarioJson: { nodes: { work: [{ outcome: 'fail' }, { outcome: 'success' }] } },
    });
    expect(run.visited).toEqual(['start', 'prep', 'work', 'prep', 'work', 'exit']);
    expect(run.result.status).toBe('completed');
    expect(run.result).toMatchObject({ quality: 'clean', failedNodes: ['work'], recoveredNodes: ['work'] });
    expect(run.events.at(-1)?.data).toMatchObject({ failed_nodes: ['work'], recovered_nodes: ['work'] });
  });

  it('a FAIL a fail edge routes around (never repaired) leaves the run degraded', async () => {
    const dot = `digraph f { start [shape=Mdiamond]; work [prompt="w"]; report [prompt="r"]; exit [shape=Msquare]
      start -> work -> exit; work -> report [condition="outcome=fail"]; report -> exit }`;
    const run = await runDot(dot, { scenarioJson: { nodes: { work: [{ outcome: 'fail' }] } } });
    expect(run.result).toMatchObject({ status: 'completed', quality: 'degraded', recoveredNodes: [] });
  });

  it('preferred_label picks the labelled edge and next_node overrides routing', async () => {
    const dot = `digraph p { start [shape=Mdiamond]; review [prompt="r"]; a [prompt="a"]; b [prompt="b"]; exit [shape=Msquare]
      start -> review; review -> a [label="[A] Approve"]; review -> b [label="[R] Revise"]; a -> exit; b -> exit }`;
    const byLabel = await runDot(dot, {
      scenarioJson: { nodes: { review: [{ outcome: 'success', preferred_label: 'revise' }] } },
    });
    expect(byLabel.visited).toEqual(['start', 'review', 'b', 'exit']);
    const byOverride = await runDot(dot, {
      scenarioJson: { nodes: { review: [{ outcome: 'success', next_node: 'exit' }] } },
    });
    expect(byOverride.visited).toEqual(['start', 'review', 'exit']);
  });

  it('a node with no eligible edge ends the run successfully there', async () => {
    const dot = `digraph d { start [shape=Mdiamond]; work [prompt="w"]; exit [shape=Msquare]; start -> work; work -> exit [condition="outcome=fail"] }`;
    const run = await runDot(dot);
    expect(run.result.status).toBe('completed');
    expect(run.result.stoppedAt).toBe('work');
  });
});

describe('retries', () => {
  const dot = (attrs: string) =>
    `digraph r { start [shape=Mdiamond]; work [prompt="w", ${attrs}]; exit [shape=Msquare]; start -> work -> exit; work -> exit [condition="outcome=fail"] }`;

  it.each([
    {
      attrs: 'max_retries=2, retry_policy=none',
      outcomes: ['retry', 'retry', 'success'],
      status: 'success',
      visits: 3,
    },
    {
      attrs: 'max_retries=1, retry_policy=none',
      outcomes: ['retry', 'retry', 'success'],
      status: 'fail',
      visits: 2,
    },
    {
      attrs: 'max_retries=1, retry_policy=none, allow_partial=true',
      outcomes: ['retry'],
      status: 'partial_success',
      visits: 2,
    },
    { attrs: 'retry_policy=none', outcomes: ['retry', 'success'], status: 'fail', visits: 1 },
  ])('$attrs with $outcomes → $status after $visits visits', async ({ attrs, outcomes, status, visits }) => {
    const run = await runDot(dot(attrs), {
      scenarioJson: { nodes: { work: outcomes.map((outcome) => ({ outcome })) } },
    });
    expect(run.visited.filter((v) => v === 'work')).toHaveLength(visits);
    expect(run.events.filter((e) => e.kind === 'node.retry')).toHaveLength(visits - 1);
    const complete = eventsOf(run.events, 'node.complete', 'work');
    expect(complete.map((e) => e.data.status)).toEqual([status]);
  });

  it('graph default_max_retries applies to nodes without max_retries', async () => {
    const d = `digraph r { graph [default_max_retries=2]; start [shape=Mdiamond]; work [prompt="w", retry_policy=none]; exit [shape=Msquare]; start -> work -> exit }`;
    const run = await runDot(d, {
      scenarioJson: { nodes: { work: [{ outcome: 'retry' }, { outcome: 'retry' }, { outcome: 'success' }] } },
    });
    expect(run.visited.filter((v) => v === 'work')).toHaveLength(3);
    expect(run.result.status).toBe('completed');
  });
});

describe('goal gates', () => {
  const dot = (extra: string) => `digraph g {
    ${extra}
    start [shape=Mdiamond]
    plan [prompt="p"]
    implement [prompt="i", goal_gate=true ${extra.includes('graph') ? '' : ', retry_target="plan"'}]
    exit [shape=Msquare]
    start -> plan -> implement -> exit
    implement -> exit [condition="outcome=fail"]
  }`;

  it('an unsatisfied gate at exit jumps to its retry_target, then passes', async () => {
    const run = await runDot(dot(''), {
      scenarioJson: { nodes: { implement: [{ outcome: 'fail' }, { outcome: 'success' }] } },
    });
    expect(run.visited).toEqual(['start', 'plan', 'implement', 'exit', 'plan', 'implement', 'exit']);
    expect(run.events.find((e) => e.kind === 'goal_gate.retry')?.data['target']).toBe('plan');
    expect(run.result.status).toBe('completed');
  });

  it('falls back to the graph retry_target', async () => {
    const run = await runDot(dot('graph [retry_target="start"]'), {
      scenarioJson: { nodes: { implement: [{ outcome: 'fail' }, { outcome: 'success' }] } },
    });
    expect(run.events.find((e) => e.kind === 'goal_gate.retry')?.data['target']).toBe('start');
    expect(run.result.status).toBe('completed');
  });

  it('without any retry target the run fails at exit', async () => {
    const d = `digraph g { start [shape=Mdiamond]; implement [prompt="i", goal_gate=true]; exit [shape=Msquare]
      start -> implement -> exit; implement -> exit [condition="outcome=fail"] }`;
    const run = await runDot(d, { scenarioJson: { nodes: { implement: [{ outcome: 'fail' }] } } });
    expect(run.result.status).toBe('failed');
    expect(run.result.failure?.reason).toContain('goal gate implement');
  });
});

describe('loops and limits', () => {
  it('loop_restart clears completed nodes, keeps counting visits and uses a fresh stage directory', async () => {
    const d = `digraph l { start [shape=Mdiamond]; work [prompt="w"]; check [shape=diamond]; exit [shape=Msquare]
      start -> work -> check
      check -> exit [condition="outcome=success"]
      check -> work [condition="outcome=fail", loop_restart=true] }`;
    const run = await runDot(d, {
      scenarioJson: { nodes: { check: [{ outcome: 'fail' }, { outcome: 'success' }] } },
    });
    expect(run.kinds).toContain('loop.restart');
    expect(run.visited).toEqual(['start', 'work', 'check', 'work', 'check', 'exit']);
    expect(existsSync(join(run.result.runDir, 'restart-1', 'work', 'prompt.md'))).toBe(true);
    const checkpoint = readJson(join(run.result.runDir, 'checkpoint.json'));
    expect(checkpoint['completed_nodes']).toEqual(['work', 'check', 'exit']);
    expect(checkpoint['restarts']).toBe(1);
  });

  it('--max-steps stops an endless loop with a clear failure', async () => {
    const d = `digraph l { start [shape=Mdiamond]; a [prompt="a"]; b [prompt="b"]; exit [shape=Msquare]
      start -> a -> b; b -> a [condition="outcome=success"]; b -> exit [condition="outcome=fail"] }`;
    const run = await runDot(d, { maxSteps: 25 });
    expect(run.result.status).toBe('failed');
    expect(run.result.failure?.reason).toMatch(/step limit of 25/);
    expect(run.visited).toHaveLength(25);
  });
});

describe('tool nodes and timeouts', () => {
  it('runs the command, exposes its output in context and fails on a non-zero exit', async () => {
    const d = `digraph t { start [shape=Mdiamond]
      say [shape=parallelogram, tool_command="echo hello-from-tool"]
      bad [shape=parallelogram, tool_command="exit 3"]
      exit [shape=Msquare]
      start -> say -> bad -> exit }`;
    const run = await runDot(d);
    expect(readFileSync(join(run.result.runDir, 'say', 'stdout.log'), 'utf8')).toContain('hello-from-tool');
    expect(run.result.context['tool.exit_code']).toBe(3);
    expect(run.result.status).toBe('failed');
    expect(run.result.failure?.reason).toMatch(/3/);
  });

  it('a node timeout aborts the handler and routes FAIL', async () => {
    const d = `digraph t { start [shape=Mdiamond]
      slow [shape=parallelogram, tool_command="sleep 20", timeout="300ms"]
      exit [shape=Msquare]
      start -> slow -> exit; slow -> exit [condition="outcome=fail"] }`;
    const began = Date.now();
    const run = await runDot(d);
    // Real time on purpose: a real `sleep 20` must be killed. The bound is far below the 20 s it would take.
    expect(Date.now() - began).toBeLessThan(5000);
    const complete = eventOf(run.events, 'node.complete', 'slow');
    expect(complete?.data.status).toBe('fail');
    expect(String(complete?.data.failure_reason)).toMatch(/timed out/);
  });
});

describe('pause, cancel and resume', () => {
  const dot = `digraph p { start [shape=Mdiamond]; a [prompt="a"]; b [prompt="b"]; c [prompt="c"]; exit [shape=Msquare]; start -> a -> b -> c -> exit }`;

  it('pause finishes the current node, checkpoints, and resume runs only what is left', async () => {
    const { startPipeline, resumePipeline } = await import('../../src/run/engine.js');
    const runsRoot = tempDir();
    const seen: string[] = [];
    const run = startPipeline({
      backend: createSimulatedBackend(),
      source: dot,
      runsRoot,
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.start') {
          seen.push(e.node_id ?? '');
          if (e.node_id === 'a') run.pause();
        }
      },
    });
    const first = await run.result;
    expect(first.status).toBe('paused');
    expect(first.stoppedAt).toBe('b');
    expect(seen).toEqual(['start', 'a']);
    const checkpoint = readJson(join(first.runDir, 'checkpoint.json'));
    expect(checkpoint['status']).toBe('paused');
    expect(checkpoint['current_node']).toBe('b');

    const resumedSeen: string[] = [];
    const resumed = resumePipeline({
      backend: createSimulatedBackend(),
      from: first.runDir,
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.start') resumedSeen.push(e.node_id ?? '');
      },
    });
    const second = await resumed.result;
    expect(second.status).toBe('completed');
    expect(resumedSeen).toEqual(['b', 'c', 'exit']);
    expect(second.completedNodes).toEqual(['start', 'a', 'b', 'c', 'exit']);

    const again = await resumePipeline({
      backend: createSimulatedBackend(),
      from: first.runDir,
      durable: false,
    }).result;
    expect(again.alreadyFinished).toBe(true);
  });

  it('a node still finishing when the run is cancelled writes no status.json after the result', async () => {
    const { startPipeline } = await import('../../src/run/engine.js');
    let finished: () => void = () => {};
    const handlerDone = new Promise<void>((resolve) => (finished = resolve));
    let started: () => void = () => {};
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const registry = createDefaultRegistry().register('linger', async ({ signal }) => {
      const aborted = new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      started();
      await aborted;
      // Cleaning up after the abort, as a tool killing its process group does, then reporting.
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished();
      return { status: 'fail', failure_reason: 'cancelled' };
    });
    const d = `digraph c { start [shape=Mdiamond]; slow [type="linger"]; exit [shape=Msquare]; start -> slow -> exit }`;
    const run = startPipeline({
      source: d,
      registry,
      runsRoot: tempDir(),
      durable: false,
    });
    // Its handler runs once the checkpoint naming it is on disk: cancelled as soon as it listens.
    await handlerStarted;
    run.cancel();
    const result = await run.result;
    expect(result.status).toBe('cancelled');
    await handlerDone;
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(join(result.runDir, 'slow', 'status.json'))).toBe(false);
    expect(readJson(join(result.runDir, 'checkpoint.json'))['current_node']).toBe('slow');
  });

  it('cancel aborts the running node and checkpoints it as the resume point', async () => {
    const { startPipeline } = await import('../../src/run/engine.js');
    const d = `digraph c { start [shape=Mdiamond]; slow [shape=parallelogram, tool_command="sleep 20"]; exit [shape=Msquare]; start -> slow -> exit }`;
    const run = startPipeline({
      backend: createSimulatedBackend(),
      source: d,
      runsRoot: tempDir(),
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'slow') setTimeout(() => run.cancel(), 100);
      },
    });
    const began = Date.now();
    const result = await run.result;
    // Real time on purpose: a real `sleep 20` must be killed. The bound is far below the 20 s it would take.
    expect(Date.now() - began).toBeLessThan(5000);
    expect(result.status).toBe('cancelled');
    const checkpoint = readJson(join(result.runDir, 'checkpoint.json'));
    expect(checkpoint['current_node']).toBe('slow');
    expect(checkpoint['status']).toBe('cancelled');
  });

  it('a corrupt or mismatched checkpoint is a clear error naming the file', async () => {
    const { resumePipeline } = await import('../../src/run/engine.js');
    const run = await runDot(dot);
    const path = join(run.result.runDir, 'checkpoint.json');
    writeFileSync(join(run.result.runDir, 'pipeline.dot'), dot.replace('c -> exit', 'c -> exit [weight=1]'));
    expect(() => resumePipeline({ backend: createSimulatedBackend(), from: run.result.runDir })).toThrow(
      /different pipeline/,
    );
    writeFileSync(path, '{"truncated": ');
    expect(() => resumePipeline({ backend: createSimulatedBackend(), from: run.result.runDir })).toThrow(
      new RegExp(`checkpoint ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON`),
    );
  });
});

describe('the artifact store', () => {
  it('hands a large output from one node to the next by reference, file-backed under artifacts/', async () => {
    const { createDefaultRegistry } = await import('../../src/actors/registry.js');
    let seen = 0;
    const registry = createDefaultRegistry()
      .register('produce', async ({ services }) => {
        const info = services.artifacts?.store('report', 'r'.repeat(150_000));
        return { status: 'success', context_updates: { 'report.id': info?.id } };
      })
      .register('consume', async ({ services, context }) => {
        seen = String(services.artifacts?.retrieve(context.getString('report.id'))).length;
        return { status: 'success' };
      });
    const run = await runDot(
      'digraph a { start [shape=Mdiamond]; p [type="produce"]; c [type="consume"]; exit [shape=Msquare]; start -> p -> c -> exit }',
      { registry },
    );
    expect(seen).toBe(150_000);
    const id = String(run.result.context['report.id']);
    expect(existsSync(join(run.result.runDir, 'artifacts', `${id}.json`))).toBe(true);
  });
});

describe('status.json for every node', () => {
  it('is written by the engine for handlers that do not write it, and kept when the handler wrote it', async () => {
    const { createDefaultRegistry } = await import('../../src/actors/registry.js');
    const registry = createDefaultRegistry()
      .register('quiet', async () => ({ status: 'success', notes: 'from the handler', preferred_label: 'x' }))
      .register('writer', async ({ stageDir }) => {
        writeFileSync(
          join(stageDir, 'status.json'),
          JSON.stringify({ outcome: 'success', notes: 'written by hand' }),
        );
        return { status: 'success' };
      });
    const run = await runDot(
      'digraph s { start [shape=Mdiamond]; q [type="quiet"]; w [type="writer"]; exit [shape=Msquare]; start -> q -> w -> exit }',
      { registry },
    );
    expect(readJson(join(run.result.runDir, 'q', 'status.json'))).toMatchObject({
      outcome: 'success',
      notes: 'from the handler',
      preferred_label: 'x',
    });
    expect(readJson(join(run.result.runDir, 'w', 'status.json'))['notes']).toBe('written by hand');
  });

  it('is written for start, exit and conditional nodes too (run layout: "all handlers")', async () => {
    const run = await runDot(
      'digraph s { start [shape=Mdiamond]; check [shape=diamond]; exit [shape=Msquare]; start -> check; check -> exit [condition="outcome=success"] }',
    );
    expect(run.result.status).toBe('completed');
    expect(readJson(join(run.result.runDir, 'start', 'status.json'))).toMatchObject({ outcome: 'success' });
    expect(readJson(join(run.result.runDir, 'check', 'status.json'))).toMatchObject({
      outcome: 'success',
      notes: 'Conditional node evaluated: check',
    });
    expect(readJson(join(run.result.runDir, 'exit', 'status.json'))).toMatchObject({ outcome: 'success' });
  });
});

describe('retry backoff', () => {
  it('waits the preset delay between attempts (standard: 200 ms x jitter)', async () => {
    const d = `digraph r { start [shape=Mdiamond]; work [prompt="w", max_retries=1, retry_policy=standard]; exit [shape=Msquare]; start -> work -> exit }`;
    const starts: number[] = [];
    // On fake timers the wait is measured exactly (and a busy machine cannot stretch it).
    vi.useFakeTimers();
    try {
      const pending = runDot(d, {
        random: () => 0.5, // jitter factor 1.0
        scenarioJson: { nodes: { work: [{ outcome: 'retry' }, { outcome: 'success' }] } },
        onEvent: (e) => {
          if (e.kind === 'node.start' && e.node_id === 'work') starts.push(Date.now());
        },
      });
      expect((await runTimersUntilSettled(pending)).result.status).toBe('completed');
    } finally {
      vi.useRealTimers();
    }
    expect(starts).toHaveLength(2);
    expect((starts[1] ?? 0) - (starts[0] ?? 0)).toBe(200);
  });

  it('node.retry says how long the wait before the next attempt is (delay_ms), and the wait is that long', async () => {
    const d = `digraph r { start [shape=Mdiamond]; work [prompt="w", max_retries=2, retry_policy=standard]; exit [shape=Msquare]; start -> work -> exit }`;
    const starts: number[] = [];
    const draws = [0, 0.9];
    vi.useFakeTimers();
    let run: Awaited<ReturnType<typeof runDot>>;
    try {
      const pending = runDot(d, {
        random: () => draws.shift() ?? 0.5,
        scenarioJson: {
          nodes: { work: [{ outcome: 'retry' }, { outcome: 'retry' }, { outcome: 'success' }] },
        },
        onEvent: (e) => {
          if (e.kind === 'node.start' && e.node_id === 'work') starts.push(Date.now());
        },
      });
      run = await runTimersUntilSettled(pending);
    } finally {
      vi.useRealTimers();
    }
    // standard: 200 ms then 400 ms, times a jitter of 0.5 + the draw.
    const retries = run.events.filter((e) => e.kind === 'node.retry').map((e) => e.data);
    expect(retries).toEqual([
      { attempt: 1, reason: 'retry requested', delay_ms: 100 },
      { attempt: 2, reason: 'retry requested', delay_ms: 560 },
    ]);
    expect(starts.slice(1).map((at, i) => at - (starts[i] ?? 0))).toEqual([100, 560]);
  });
});

describe('resume from the --checkpoint-dir history', () => {
  it('finds the run directory recorded in a timestamped checkpoint', async () => {
    const { startPipeline, resumePipeline } = await import('../../src/run/engine.js');
    const { readdirSync } = await import('node:fs');
    const history = tempDir('attractor-history-');
    const source = `digraph h { start [shape=Mdiamond]; a [prompt="a"]; b [prompt="b"]; exit [shape=Msquare]; start -> a -> b -> exit }`;
    const run = startPipeline({
      backend: createSimulatedBackend(),
      source,
      runsRoot: tempDir(),
      checkpointDir: history,
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'a') run.pause();
      },
    });
    const paused = await run.result;
    const latest = readdirSync(history).sort().at(-1) ?? '';
    expect(latest).toMatch(/^checkpoint_\d+\.json$/);
    const resumed = await resumePipeline({
      backend: createSimulatedBackend(),
      from: join(history, latest),
      durable: false,
    }).result;
    expect(resumed.status).toBe('completed');
    expect(resumed.runDir).toBe(paused.runDir);
  });
});

describe('handlers that throw', () => {
  it.each([
    { name: 'a retryable error is retried', retryable: true, throws: 2, status: 'completed', visits: 3 },
    {
      name: 'any other error is a FAIL with its message',
      retryable: false,
      throws: 1,
      status: 'failed',
      visits: 1,
    },
  ])('$name', async ({ retryable, throws, status, visits }) => {
    const { createDefaultRegistry } = await import('../../src/actors/registry.js');
    let calls = 0;
    const registry = createDefaultRegistry().register('flaky', async () => {
      calls += 1;
      if (calls <= throws) throw Object.assign(new Error(`boom ${calls}`), { isRetryable: retryable });
      return { status: 'success' };
    });
    const run = await runDot(
      'digraph t { start [shape=Mdiamond]; f [type="flaky", max_retries=2, retry_policy=none]; exit [shape=Msquare]; start -> f -> exit }',
      { registry },
    );
    expect(run.result.status).toBe(status);
    expect(calls).toBe(visits);
    if (status === 'failed') expect(run.result.failure?.reason).toContain('boom 1');
  });
});

describe('the run lock', () => {
  /** A run of `start -> a -> b -> exit` paused as `a` starts. */
  async function pausedAtA(b: string, registry?: ReturnType<typeof createDefaultRegistry>) {
    const { startPipeline } = await import('../../src/run/engine.js');
    const source = `digraph l { start [shape=Mdiamond]; a [prompt="a"]; b [${b}]; exit [shape=Msquare]; start -> a -> b -> exit }`;
    const run = startPipeline({
      backend: createSimulatedBackend(),
      ...(registry ? { registry } : {}),
      source,
      runsRoot: tempDir(),
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'a') run.pause();
      },
    });
    return run.result;
  }

  it('refuses to resume a run another live process holds, and ignores a stale lock', async () => {
    const { spawn } = await import('node:child_process');
    const { resumePipeline } = await import('../../src/run/engine.js');
    const paused = await pausedAtA('prompt="b"');
    expect(existsSync(join(paused.runDir, 'run.lock'))).toBe(false);
    const other = spawn('sleep', ['10']);
    try {
      writeFileSync(join(paused.runDir, 'run.lock'), `${other.pid}\n`);
      expect(() =>
        resumePipeline({ backend: createSimulatedBackend(), from: paused.runDir, durable: false }),
      ).toThrow(/still running in process/);
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.on('exit', r));
    }
    const resumed = await resumePipeline({
      backend: createSimulatedBackend(),
      from: paused.runDir,
      durable: false,
    }).result;
    expect(resumed.status).toBe('completed');
  });

  it('refuses a second resume of a run this same process is running', async () => {
    const { resumePipeline } = await import('../../src/run/engine.js');
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const registry = createDefaultRegistry().register('hold', async () => {
      await held;
      return { status: 'success' };
    });
    const paused = (await pausedAtA('type="hold"', registry)).runDir;
    const options = { backend: createSimulatedBackend(), registry, from: paused, durable: false };
    const first = resumePipeline(options);
    expect(() => resumePipeline({ ...options, from: `${paused}/.` })).toThrow(
      /still running in this process/,
    );
    release();
    expect((await first.result).status).toBe('completed');
    expect(existsSync(join(paused, 'run.lock'))).toBe(false);
  });
});

describe('a wide fan-out', () => {
  it('runs a dozen branches at once without Node warning about abort listeners', async () => {
    const branches = Array.from({ length: 12 }, (_, i) => `b${i}`);
    const dot = `digraph wide {
      start [shape=Mdiamond]
      fan [shape=component, max_parallel=12]
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> fan
      ${branches.map((b) => `${b} [type="barrier"]\n fan -> ${b}\n ${b} -> join`).join('\n')}
      join -> exit
    }`;
    // Every branch waits until all twelve are running: twelve handlers listen at the same time.
    let arrived = 0;
    let release = () => {};
    const all = new Promise<void>((resolve) => {
      release = resolve;
    });
    const registry = createDefaultRegistry().register('barrier', async () => {
      if (++arrived === branches.length) release();
      await all;
      return { status: 'success' };
    });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const run = await runDot(dot, { registry });
      expect(run.result.status).toBe('completed');
      expect(arrived).toBe(12);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });
});
