import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { Answer, Interviewer } from '../../src/actors/interviewers/interviewer.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { loadPipeline } from '../../src/compiler/compile.js';
import { startPipeline } from '../../src/run/engine.js';
import { createRunStore } from '../../src/tui/run-store.js';
import { GATED_PIPELINE } from '../helpers/gated-pipeline.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An interviewer whose gate waits until the test answers it. */
function heldGate(): { interviewer: Interviewer; asked: Promise<void>; answer: (a: Answer) => void } {
  let answer: (a: Answer) => void = () => {};
  let onAsked: () => void = () => {};
  const asked = new Promise<void>((resolve) => {
    onAsked = resolve;
  });
  const interviewer: Interviewer = {
    ask: () =>
      new Promise<Answer>((resolve) => {
        answer = resolve;
        onAsked();
      }),
  };
  return { interviewer, asked, answer: (a) => answer(a) };
}

test('the store follows the live pipeline actor: a pause asked for by any caller shows before any event says so', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-store-actor-'));
  dirs.push(dir);
  const { graph } = loadPipeline(GATED_PIPELINE);
  const followed = createRunStore(graph);
  const eventsOnly = createRunStore(graph);
  const gate = heldGate();
  const run = startPipeline({
    source: GATED_PIPELINE,
    runDir: path.join(dir, 'run'),
    backend: createSimulatedBackend(),
    interviewer: gate.interviewer,
    onEvent: (event) => {
      followed.push(event);
      eventsOnly.push(event);
    },
    inspect: (event) => followed.observe(event),
  });
  await gate.asked;
  expect(followed.getState().phase).toBe('waiting');

  // Not the TUI's key: the pause comes from elsewhere (a signal handler, an embedding app).
  run.pause();
  expect(followed.getState().phase).toBe('pausing');
  // The event stream has nothing to say until the run has paused.
  expect(eventsOnly.getState().phase).toBe('waiting');

  gate.answer({ selected: { key: 'A', label: '[A] Approve', target: 'ship' } });
  const result = await run.result;
  expect(result.status).toBe('paused');
  expect(followed.getState().phase).toBe('paused');
  expect(eventsOnly.getState().phase).toBe('paused');
});

test('the node the actor runs is the current one as soon as the actor enters it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-store-actor-'));
  dirs.push(dir);
  const { graph } = loadPipeline(GATED_PIPELINE);
  const store = createRunStore(graph);
  const gate = heldGate();
  const seen: Array<string | undefined> = [];
  // Only the actor: no events at all, so whatever the store knows of the running node came from it.
  const run = startPipeline({
    source: GATED_PIPELINE,
    runDir: path.join(dir, 'run'),
    backend: createSimulatedBackend(),
    interviewer: gate.interviewer,
    inspect: (event) => {
      store.observe(event);
      seen.push(store.getState().current);
    },
  });
  await gate.asked;
  expect(store.getState().current).toBe('gate');
  expect(store.getState().nodes['gate']?.status).toBe('running');
  expect(seen).toContain('start');
  gate.answer({ selected: { key: 'A', label: '[A] Approve', target: 'ship' } });
  await run.result;
  expect(seen).toContain('ship');
});
