import { describe, expect, it } from 'vitest';
import type { CodergenBackend } from '../../src/actors/codergen-backend.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

function recordingBackend(seen: Array<{ id: string; fidelity: string; thread?: string }>): CodergenBackend {
  return {
    name: 'recording',
    async run(request) {
      seen.push({
        id: request.node.id,
        fidelity: request.fidelity,
        ...(request.threadId ? { thread: request.threadId } : {}),
      });
      return { response: 'ok' };
    },
  };
}

describe('fidelity and threads reach the codergen backend', () => {
  it('resolves edge > node > graph default > compact, and passes the thread id', async () => {
    const seen: Array<{ id: string; fidelity: string; thread?: string }> = [];
    await runDot(
      `digraph f { graph [default_fidelity="truncate"]
        start [shape=Mdiamond]
        a [prompt="a"]
        b [prompt="b", fidelity="summary:low"]
        c [prompt="c", fidelity="summary:low", thread_id="main"]
        exit [shape=Msquare]
        start -> a -> b
        b -> c [fidelity="full"]
        c -> exit }`,
      { backend: recordingBackend(seen) },
    );
    expect(seen.map((s) => [s.id, s.fidelity])).toEqual([
      ['a', 'truncate'],
      ['b', 'summary:low'],
      ['c', 'full'],
    ]);
    expect(seen.find((s) => s.id === 'c')?.thread).toBe('main');
  });

  it('after a resume the first full-fidelity node degrades to summary:high once', async () => {
    const source = `digraph f { start [shape=Mdiamond]
      a [prompt="a", fidelity="full", thread_id="t"]
      b [prompt="b", fidelity="full", thread_id="t"]
      c [prompt="c", fidelity="full", thread_id="t"]
      exit [shape=Msquare]
      start -> a -> b -> c -> exit }`;
    const first: Array<{ id: string; fidelity: string }> = [];
    const run = startPipeline({
      source,
      runsRoot: tempDir(),
      durable: false,
      backend: recordingBackend(first),
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'a') run.pause();
      },
    });
    const paused = await run.result;
    expect(first.map((s) => s.fidelity)).toEqual(['full']);
    const after: Array<{ id: string; fidelity: string }> = [];
    await resumePipeline({ from: paused.runDir, durable: false, backend: recordingBackend(after) }).result;
    expect(after.map((s) => [s.id, s.fidelity])).toEqual([
      ['b', 'summary:high'],
      ['c', 'full'],
    ]);
  });
});

describe('llm_decide edges', () => {
  const dot = `digraph r { graph [router_model="fast-model"]
    start [shape=Mdiamond]
    triage [prompt="t"]
    docs [prompt="d"]
    code [prompt="c"]
    fallback [prompt="f"]
    exit [shape=Msquare]
    start -> triage
    triage -> docs [llm_decide=true]
    triage -> code [llm_decide=true]
    triage -> fallback
    docs -> exit; code -> exit; fallback -> exit }`;

  it.each([
    { name: 'the router picks a candidate', answer: 'code', next: 'code' },
    { name: 'an unknown answer falls through to steps 2–5', answer: 'nowhere', next: 'fallback' },
    { name: 'a router failure falls through too', answer: new Error('router down'), next: 'fallback' },
  ])('$name', async ({ answer, next }) => {
    const asked: string[][] = [];
    const run = await runDot(dot, {
      llmRank: async ({ candidates }) => {
        asked.push(candidates);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    expect(asked[0]).toEqual(['docs', 'code']);
    expect(run.visited[2]).toBe(next);
  });
});

describe('resume keeps the incoming edge', () => {
  it("the resumed node still sees its incoming edge's fidelity and thread id", async () => {
    const source = `digraph f { start [shape=Mdiamond]
      a [prompt="a"]
      b [prompt="b"]
      exit [shape=Msquare]
      start -> a
      a -> b [fidelity="truncate", thread_id="edge-thread"]
      b -> exit }`;
    const run = startPipeline({
      backend: createSimulatedBackend(),
      source,
      runsRoot: tempDir(),
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'a') run.pause();
      },
    });
    const paused = await run.result;
    expect(paused.stoppedAt).toBe('b');
    const seen: Array<{ id: string; fidelity: string; thread?: string }> = [];
    await resumePipeline({ from: paused.runDir, durable: false, backend: recordingBackend(seen) }).result;
    expect(seen[0]).toEqual({ id: 'b', fidelity: 'truncate', thread: 'edge-thread' });
  });
});
