// A pipeline whose human gate outlives the process: the first process runs until the gate asks its
// question, stores the actor's persisted snapshot (JSON) and exits; a later process restores the actor
// from that file, answers the gate and finishes the run. This is how an app keeps an approval pending
// across deploys or restarts without holding a process open.
//
//   node examples/embed/persist-restore.mjs start  /tmp/release.json      # → waiting: Publish the notes?
//   node examples/embed/persist-restore.mjs answer /tmp/release.json A    # → completed: start, draft, …
//                                                                         #   ran in this process: review, …
//
// The gate's handler was running when the snapshot was taken, so the restored actor runs it again and
// the question is asked again, this time of an interviewer that answers. Nodes that had completed
// (`draft`) do not run again. The LLM backend here is the simulated one, chosen on purpose.

import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  CallbackInterviewer,
  compileMachine,
  pipelineInput,
  providePipeline,
  restorePipeline,
} from 'attractor-pipelines';
import { createSimulatedBackend } from 'attractor-pipelines/testing';
import { createActor, toPromise } from 'xstate';

const PIPELINE = `digraph release {
  graph [goal="Ship the release notes"]
  start [shape=Mdiamond]
  draft [prompt="Draft release notes for: $goal"]
  review [shape=hexagon, label="Publish the notes?"]
  publish [prompt="Publish the notes"]
  exit [shape=Msquare]
  start -> draft -> review
  review -> publish [label="[A] Approve"]
  review -> draft [label="[R] Revise"]
  publish -> exit
}`;

const compiled = compileMachine(PIPELINE);

/** Replace the state file whole, so a crash mid-write never leaves half a snapshot. */
function save(file, actor) {
  writeFileSync(`${file}.tmp`, JSON.stringify(actor.getPersistedSnapshot()));
  renameSync(`${file}.tmp`, file);
}

/** Runs until the gate asks, stores the snapshot in `file`, stops. Resolves with the question. */
export async function start(file) {
  let actor;
  const asked = new Promise((resolve) => {
    const interviewer = new CallbackInterviewer((question) => {
      // Persist while the gate's handler is running (before stop(), which drops running actors).
      save(file, actor);
      resolve(question.text);
      return new Promise(() => {}); // nobody answers in this process
    });
    const machine = providePipeline(compiled, { interviewer, backend: createSimulatedBackend() });
    // The run's folder (stage outputs, status files) beside the file that stores its state.
    const runDir = mkdtempSync(join(dirname(file), 'release-'));
    actor = createActor(machine, { input: pipelineInput(compiled, { runDir }) });
    // Also after every step, as an app would: a crash loses at most the step in progress.
    actor.subscribe(() => save(file, actor));
    actor.start();
  });
  const question = await asked;
  actor.stop();
  return question;
}

/** Restores the actor stored in `file`, answers the gate with `key`, runs to the end. */
export async function answer(file, key) {
  const interviewer = new CallbackInterviewer((question) => {
    const option = question.options.find((o) => o.key === key);
    if (!option) throw new Error(`answer one of ${question.options.map((o) => o.key)}`);
    return { selected: option };
  });
  const machine = providePipeline(compiled, { interviewer, backend: createSimulatedBackend() });
  const actor = restorePipeline(machine, JSON.parse(await readFile(file, 'utf8')));
  const ranHere = [];
  actor.on('pipeline.event', (e) => e.kind === 'node.complete' && ranHere.push(e.nodeId));
  actor.subscribe(() => save(file, actor));
  actor.start();
  await toPromise(actor);
  const { value, context } = actor.getSnapshot();
  return { state: value, completed: context.completedNodes, ranHere };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, file, key] = process.argv.slice(2);
  if (command === 'start' && file) console.log(`waiting: ${await start(file)}`);
  else if (command === 'answer' && file && key) {
    const { state, completed, ranHere } = await answer(file, key);
    console.log(`${state === '__completed' ? 'completed' : state}: ${completed.join(', ')}`);
    console.log(`ran in this process: ${ranHere.join(', ')}`);
  } else {
    console.error('usage: persist-restore.mjs start <state.json> | answer <state.json> <key>');
    process.exitCode = 2;
  }
}
