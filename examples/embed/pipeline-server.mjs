// A pipeline inside a small Node HTTP service: each POST /runs starts the pipeline as an XState actor,
// GET /runs/<id> shows where it is, and POST /runs/<id>/answer answers its human gate.
//
//   node examples/embed/pipeline-server.mjs            # listens on 127.0.0.1:3000
//   curl -X POST localhost:3000/runs                   # → {"id":"1"}
//   curl localhost:3000/runs/1                         # → {"state":"waiting","question":...}
//   curl -X POST localhost:3000/runs/1/answer -d A     # approve
//
// The LLM backend here is the simulated one, chosen on purpose: pass your own CodergenBackend instead.

import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallbackInterviewer, compileMachine, pipelineInput, providePipeline } from 'attractor-pipelines';
import { createSimulatedBackend } from 'attractor-pipelines/testing';
import { createActor } from 'xstate';

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

// Compiled once (and cached by source hash): every run is another actor of the same machine.
const compiled = compileMachine(PIPELINE);

/**
 * Starts the service; resolves with its address and a `close()`. Each run keeps its folder (stage
 * outputs, status files) under `runsRoot`: the system's temp folder unless you say where.
 */
export async function startPipelineServer(port = 3000, { runsRoot = tmpdir() } = {}) {
  const runs = new Map();
  const server = createServer(async (req, res) => {
    const reply = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const [, , id, action] = (req.url ?? '').split('/');
    if (req.method === 'POST' && !id) return reply(201, { id: startRun(runs, runsRoot) });
    const run = runs.get(id);
    if (!run) return reply(404, { error: 'no such run' });
    if (req.method === 'POST' && action === 'answer') {
      if (!run.pending) return reply(409, { error: 'nothing to answer' });
      let key = '';
      for await (const chunk of req) key += chunk;
      const option = run.pending.question.options.find((o) => o.key === key.trim());
      if (!option)
        return reply(400, { error: `answer one of ${run.pending.question.options.map((o) => o.key)}` });
      run.pending.answer({ selected: option });
      run.pending = undefined;
      return reply(200, { ok: true });
    }
    const snapshot = run.actor.getSnapshot();
    return reply(200, {
      state: snapshot.status === 'done' ? snapshot.value : run.pending ? 'waiting' : 'running',
      completed: snapshot.context.completedNodes,
      events: run.events,
      ...(run.pending ? { question: run.pending.question.text } : {}),
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => {
      for (const run of runs.values()) run.actor.stop();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function startRun(runs, runsRoot) {
  const id = String(runs.size + 1);
  const run = { events: [], pending: undefined };
  // Human gates wait for POST /answer; nothing is approved behind the user's back.
  const interviewer = new CallbackInterviewer(
    (question) => new Promise((answer) => (run.pending = { question, answer })),
  );
  const machine = providePipeline(compiled, {
    interviewer,
    backend: createSimulatedBackend(),
    emit: (kind, _data, node) => run.events.push(`${kind} ${node ?? ''}`.trim()),
  });
  const runDir = mkdtempSync(join(runsRoot, `release-${id}-`));
  run.actor = createActor(machine, { input: pipelineInput(compiled, { runDir }) });
  // The machine's own events (node.start, node.complete, …); checkpoints are ignored in this example.
  run.actor.on('pipeline.event', (e) => run.events.push(`${e.kind} ${e.nodeId ?? ''}`.trim()));
  run.actor.start();
  runs.set(id, run);
  return id;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { port } = await startPipelineServer(Number(process.env.PORT ?? 3000));
  console.log(`pipeline service on http://127.0.0.1:${port}`);
}
