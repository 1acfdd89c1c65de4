import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { createSimulatedBackend } from '../../src/actors/simulated-backend.js';
import { type Checkpoint, readCheckpoint } from '../../src/machines/checkpoint.js';
import { resumePipeline } from '../../src/machines/engine.js';
import { restartCheckpoint } from '../../src/machines/restart-after-failure.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { runDot, tempDir } from './run-helpers.js';

/** `flaky` throws a retryable error while the service is down; max_retries=2 gives it three attempts. */
const PIPELINE = `digraph flaky_run {
  start [shape=Mdiamond]
  plan [prompt="Plan"]
  call [type="flaky", max_retries=2, retry_policy="none"]
  report [prompt="Report"]
  exit [shape=Msquare]
  start -> plan -> call -> report -> exit
}`;

function flakyRegistry(service: { up: boolean; attempts: number }) {
  return createDefaultRegistry().register('flaky', async () => {
    service.attempts += 1;
    if (!service.up) throw Object.assign(new Error('the provider is down'), { retryable: true });
    return { status: 'success' };
  });
}

describe('resuming a failed run (library)', () => {
  it('starts again at the node that failed with its retry budget renewed, and ends clean', async () => {
    const service = { up: false, attempts: 0 };
    const registry = flakyRegistry(service);
    const first = await runDot(PIPELINE, { runDir: tempDir(), registry });
    expect(first.result).toMatchObject({ status: 'failed', failure: { node: 'call' } });
    expect(service.attempts).toBe(3);
    expect(readCheckpoint(`${first.runDir}/checkpoint.json`)).toMatchObject({
      status: 'failed',
      current_node: 'call',
      failed_nodes: ['call'],
    });

    // Still down: the resumed node gets all three attempts again (not zero: its budget is renewed).
    const events: PipelineEvent[] = [];
    const again = await resumePipeline({
      from: first.runDir,
      registry,
      backend: createSimulatedBackend(),
      durable: false,
      onEvent: (e) => events.push(e),
    }).result;
    expect(again.status).toBe('failed');
    expect(service.attempts).toBe(6);
    expect(events.filter((e) => e.kind === 'node.retry').map((e) => e.data['attempt'])).toEqual([1, 2]);
    expect(events[0]).toMatchObject({
      kind: 'pipeline.resume',
      data: { resume_at: 'call', after_failure: { node: 'call', reason: 'the provider is down' } },
    });

    // Back up: the resume completes, clean (the failure it recovered from is not held against it).
    service.up = true;
    const seen: string[] = [];
    const done = await resumePipeline({
      from: first.runDir,
      registry,
      backend: createSimulatedBackend(),
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.start') seen.push(e.node_id ?? '');
      },
    }).result;
    expect(done).toMatchObject({ status: 'completed', quality: 'clean', failedNodes: [] });
    expect(seen).toEqual(['call', 'report', 'exit']);
    expect(done.completedNodes).toEqual(['start', 'plan', 'call', 'report', 'exit']);

    // A completed run is not run again.
    const finished = await resumePipeline({ from: first.runDir, registry, durable: false }).result;
    expect(finished).toMatchObject({ alreadyFinished: true, status: 'completed' });
  });

  it('a goal gate left unsatisfied at the exit starts again at the gate', async () => {
    const service = { up: false };
    const registry = createDefaultRegistry().register('check', async () => ({
      status: service.up ? 'success' : 'fail',
    }));
    const source = `digraph gated {
  start [shape=Mdiamond]
  call [type="check", goal_gate=true]
  report [prompt="Report"]
  exit [shape=Msquare]
  start -> call
  call -> report [condition="outcome=fail"]
  call -> report
  report -> exit
}`;
    const first = await runDot(source, { runDir: tempDir(), registry });
    expect(first.result).toMatchObject({ status: 'failed', stoppedAt: 'exit', failure: { node: 'call' } });
    service.up = true;
    const seen: string[] = [];
    const done = await resumePipeline({
      from: first.runDir,
      registry,
      backend: createSimulatedBackend(),
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.start') seen.push(e.node_id ?? '');
      },
    }).result;
    expect(seen).toEqual(['call', 'report', 'exit']);
    expect(done).toMatchObject({ status: 'completed', quality: 'clean' });
  });
});

describe('restartCheckpoint', () => {
  const failed: Checkpoint = {
    timestamp: 1,
    current_node: 'exit',
    completed_nodes: ['start', 'gate', 'other', 'exit'],
    node_retries: { gate: 2, other: 1 },
    context: { k: 'v' },
    logs: [],
    pipeline: 'p',
    run_id: 'r',
    status: 'failed',
    node_outcomes: { gate: 'fail', other: 'fail' },
    steps: 4,
    restarts: 0,
    failed_nodes: ['other', 'gate'],
    failure: { node: 'gate', reason: 'goal gate gate did not succeed' },
    arrived_by: 3,
    source_sha256: 'x',
  };

  it('renews only the failed node: its retries, its outcome, its failure; the edge into the exit is dropped', () => {
    const restart = { node: 'gate', reason: 'goal gate gate did not succeed' };
    expect(restartCheckpoint(failed, restart)).toEqual({
      ...failed,
      status: 'running',
      current_node: 'gate',
      node_retries: { other: 1 },
      node_outcomes: { other: 'fail' },
      failed_nodes: ['other'],
      failure: undefined,
      arrived_by: undefined,
    });
  });
});
