import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Answer, Interviewer } from '../../src/actors/interviewers/interviewer.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { loadPipeline } from '../../src/compiler/compile.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import { forkRun } from '../../src/run/fork-run.js';
import { readRunSummary } from '../../src/run/read-run-summary.js';
import { eventsOf, tempDir } from '../helpers/run-helpers.js';

const GATED = `digraph gated {
  start [shape=Mdiamond]
  work [prompt="Work"]
  review [shape=hexagon, label="Ship it?"]
  exit [shape=Msquare]
  start -> work -> review
  review -> exit [label="[S] Ship"]
  review -> work [label="[R] Rework"]
}
`;

/** A person at a gate: waits until `answer` is called, and says who answered. */
function personAtGate() {
  let reply: ((answer: Answer) => void) | undefined;
  let asked: () => void = () => {};
  const waiting = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const interviewer: Interviewer = {
    ask: (_question, signal) =>
      new Promise<Answer>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        reply = resolve;
        asked();
      }),
  };
  return { interviewer, waiting, answer: (answer: Answer) => reply?.(answer) };
}

const manifestOf = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'));

describe('who did it, as the engine records it', () => {
  it('names who started, cancelled, resumed and answered in the manifest, the events and the run list', async () => {
    const gate = personAtGate();
    const events: Parameters<NonNullable<Parameters<typeof startPipeline>[0]['onEvent']>>[0][] = [];
    const common = {
      durable: false,
      backend: createSimulatedBackend(),
      onEvent: (e: (typeof events)[0]) => events.push(e),
    };
    const run = startPipeline({
      ...common,
      source: GATED,
      runsRoot: tempDir(),
      interviewer: gate.interviewer,
      identity: 'alice',
    });
    await gate.waiting;
    run.cancel('bob');
    const cancelled = await run.result;
    expect(cancelled.status).toBe('cancelled');
    expect(manifestOf(run.runDir)).toMatchObject({ started_by: 'alice' });
    expect(eventsOf(events, 'pipeline.start')[0]?.data.started_by).toBe('alice');
    expect(eventsOf(events, 'pipeline.cancelled')[0]?.data.cancelled_by).toBe('bob');
    expect(readRunSummary(run.runDir)).toMatchObject({
      status: 'cancelled',
      quality: 'failed',
      started_by: 'alice',
      cancelled_by: 'bob',
    });

    const again = personAtGate();
    const resumed = resumePipeline({
      ...common,
      from: run.runDir,
      interviewer: again.interviewer,
      identity: 'carol',
    });
    await again.waiting;
    again.answer({ selected: { key: 'S', label: 'Ship', target: 'exit' }, answeredBy: 'dave' });
    expect((await resumed.result).status).toBe('completed');
    expect(eventsOf(events, 'pipeline.resume')[0]?.data.resumed_by).toBe('carol');
    expect(eventsOf(events, 'interview.complete')[0]?.data).toMatchObject({ key: 'S', answered_by: 'dave' });
    const summary = readRunSummary(run.runDir);
    expect(summary).toMatchObject({
      status: 'completed',
      quality: 'clean',
      started_by: 'alice',
      resumed_by: 'carol',
    });
    expect(summary).not.toHaveProperty('cancelled_by');
  });

  it('names who forked a run, in the fork manifest and its first start', async () => {
    const runsRoot = tempDir();
    const first = startPipeline({
      durable: false,
      backend: createSimulatedBackend(),
      source: GATED,
      runsRoot,
      interviewer: { ask: async (q) => ({ selected: q.options[0] ?? { key: 'S', label: 'Ship' } }) },
      identity: 'alice',
    });
    await first.result;
    const { graph } = loadPipeline(GATED);
    const fork = forkRun({ from: first.runDir, node: 'review', graph, source: GATED, by: 'erin' });
    expect(manifestOf(fork.runDir)).toMatchObject({ started_by: 'erin', forked_by: 'erin' });
    const events: Parameters<NonNullable<Parameters<typeof startPipeline>[0]['onEvent']>>[0][] = [];
    const resumed = resumePipeline({
      durable: false,
      backend: createSimulatedBackend(),
      from: fork.runDir,
      interviewer: { ask: async (q) => ({ selected: q.options[0] ?? { key: 'S', label: 'Ship' } }) },
      onEvent: (e) => events.push(e),
    });
    await resumed.result;
    expect(eventsOf(events, 'pipeline.resume')[0]?.data).toMatchObject({ forked_by: 'erin' });
    expect(eventsOf(events, 'pipeline.resume')[0]?.data).not.toHaveProperty('resumed_by');
    expect(readRunSummary(fork.runDir)).toMatchObject({ started_by: 'erin', forked_by: 'erin' });
  });
});
