import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitHumanHandler } from '../../../src/actors/handlers/wait-human.js';
import { CallbackInterviewer } from '../../../src/actors/interviewers/callback.js';
import type { Answer, Interviewer, Question } from '../../../src/actors/interviewers/interviewer.js';
import { QueueInterviewer } from '../../../src/actors/interviewers/queue.js';
import type { EdgeAttrs, NodeAttrs } from '../../../src/compiler/ir.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeEdge, makeGraph, makeNode } from '../helpers/graph-builders.js';

const REVIEW_EDGES: Array<[string, EdgeAttrs]> = [
  ['ship', { label: '[A] Approve' }],
  ['fix', { label: '[R] Revise' }],
  ['fix', { label: '[T] Try again' }],
  ['abandon', {}],
];

function gate(attrs: NodeAttrs = {}, edges = REVIEW_EDGES) {
  const node = makeNode('review', { shape: 'hexagon', label: 'Review the draft', ...attrs });
  const graph = makeGraph({
    nodes: [node, makeNode('ship'), makeNode('fix'), makeNode('abandon')],
    edges: edges.map(([target, edgeAttrs]) => makeEdge('review', target, edgeAttrs)),
  });
  return { node, graph };
}

describe('waitHumanHandler', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  async function run(
    interviewer: Interviewer,
    attrs: NodeAttrs = {},
    edges = REVIEW_EDGES,
    signal?: AbortSignal,
  ) {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const { node, graph } = gate(attrs, edges);
    const services = createFakeServices({ interviewer });
    const outcome = await waitHumanHandler(
      makeInput({ node, graph, runDir, services, ...(signal ? { signal } : {}) }),
    );
    return { outcome, events: services.events };
  }

  it.each<[string, string, string | undefined, string, string]>([
    ['A', 'ship', '[A] Approve', 'A', '[A] Approve'],
    ['revise', 'fix', '[R] Revise', 'R', '[R] Revise'],
    ['T', 'fix', '[T] Try again', 'T', '[T] Try again'],
    ['abandon', 'abandon', undefined, 'A', 'abandon'],
  ])('answer %j routes to %s', async (answer, target, preferred, key, label) => {
    const { outcome } = await run(new QueueInterviewer([answer]));
    expect(outcome).toEqual({
      status: 'success',
      ...(preferred ? { preferred_label: preferred } : {}),
      suggested_next_ids: [target],
      context_updates: { 'human.gate.selected': key, 'human.gate.label': label },
      notes: `Human selected: ${label}`,
    });
  });

  it('emits interview.start and interview.complete', async () => {
    const { events } = await run(new QueueInterviewer(['R']), { 'human.timeout': 10_000 });
    expect(events.map((e) => e.kind)).toEqual(['interview.start', 'interview.complete']);
    expect(events[0]).toMatchObject({
      nodeId: 'review',
      data: { question: 'Review the draft', type: 'multiple_choice', timeout_ms: 10_000 },
    });
    expect(events[1]).toMatchObject({
      nodeId: 'review',
      data: { key: 'R', label: '[R] Revise', target: 'fix' },
    });
  });

  const never: Interviewer = {
    ask: (_q, signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
  };
  const ignoresSignal: Interviewer = { ask: () => new Promise(() => {}) };

  it.each<[string, Interviewer, string | undefined, string | undefined]>([
    ['default by key', never, 'R', 'fix'],
    ['default by target id', never, 'ship', 'ship'],
    ['default by label', never, 'try again', 'fix'],
    ['interviewer that ignores the signal', ignoresSignal, 'A', 'ship'],
    [
      'interviewer answering TIMEOUT itself',
      new CallbackInterviewer(() => ({ value: 'timeout' })),
      'A',
      'ship',
    ],
  ])('timeout with %s', async (_name, interviewer, defaultChoice, target) => {
    // On fake timers: the gate gives up exactly at its timeout, whatever the interviewer does.
    vi.useFakeTimers();
    const started = Date.now();
    const pending = run(interviewer, {
      'human.timeout': 50,
      ...(defaultChoice ? { 'human.default_choice': defaultChoice } : {}),
    });
    await vi.runAllTimersAsync();
    const { outcome, events } = await pending;
    expect(Date.now() - started).toBeLessThanOrEqual(50);
    expect(outcome.status).toBe('success');
    expect(outcome.suggested_next_ids).toEqual([target]);
    expect(outcome.notes).toMatch(/^Timed out; used default choice/);
    expect(events.map((e) => e.kind)).toEqual(['interview.start', 'interview.timeout']);
  });

  it.each([
    ['no default', undefined],
    ['a default that names nothing', 'Z'],
  ])('timeout with %s → RETRY', async (_name, defaultChoice) => {
    const { outcome, events } = await run(never, {
      'human.timeout': 30,
      ...(defaultChoice ? { 'human.default_choice': defaultChoice } : {}),
    });
    expect(outcome).toEqual({ status: 'retry', failure_reason: 'human gate timeout, no default' });
    expect(events.at(-1)?.kind).toBe('interview.timeout');
  });

  it('FAILs when the question is skipped', async () => {
    const { outcome } = await run(new QueueInterviewer([]));
    expect(outcome).toEqual({ status: 'fail', failure_reason: 'human skipped interaction' });
  });

  it('FAILs without outgoing edges', async () => {
    const { outcome } = await run(new QueueInterviewer(['A']), {}, []);
    expect(outcome).toEqual({ status: 'fail', failure_reason: 'No outgoing edges for human gate' });
  });

  it.each<[string, Answer, string]>([
    [
      'a copy of an option is matched by target and label',
      { selected: { key: 'T', label: '[T] Try again', target: 'fix' } },
      'fix',
    ],
    ['YES picks the yes-like option', { value: 'yes' }, 'ship'],
  ])('%s', async (_name, answer, target) => {
    const { outcome } = await run(new CallbackInterviewer(() => answer));
    expect(outcome.suggested_next_ids).toEqual([target]);
  });

  it.each<[string, Answer, string]>([
    ['an unknown text', { text: 'looks fine' }, '"looks fine"'],
    ['an empty text', { text: '' }, 'an empty answer'],
    ['an option of another question', { selected: { key: 'Z', label: 'Zap', target: 'nowhere' } }, '"Zap"'],
    ['nothing at all', {}, 'an empty answer'],
  ])('an answer naming no option (%s) FAILs the gate: no edge is guessed', async (_name, answer, said) => {
    const { outcome, events } = await run(new CallbackInterviewer(() => answer));
    expect(outcome).toEqual({
      status: 'fail',
      failure_reason: `answer refused: ${said} is none of the options of gate review: [A] Approve, [R] Revise, [T] Try again, [A] abandon`,
    });
    expect(events.at(-1)).toMatchObject({
      kind: 'interview.complete',
      data: { refused: expect.any(String) },
    });
  });

  it.each<[string, string, Answer, string, string]>([
    [
      'free text follows the option human.freeform names',
      'R',
      { text: 'add tests first' },
      'fix',
      'add tests first',
    ],
    ['an option picked by key keeps no text', 'R', { text: 'A' }, 'ship', ''],
    ['free text by its label', 'revise', { text: 'too slow' }, 'fix', 'too slow'],
  ])('%s', async (_name, freeform, answer, target, text) => {
    const { outcome, events } = await run(new CallbackInterviewer(() => answer), {
      'human.freeform': freeform,
    });
    expect(outcome.suggested_next_ids).toEqual([target]);
    expect(outcome.context_updates).toMatchObject({ 'human.gate.text': text });
    expect(events[0]?.data).toMatchObject({ text_option: 'R' });
  });

  it('a gate with one edge and human.freeform=true asks a freeform question and keeps the text', async () => {
    let asked: Question | undefined;
    const { outcome } = await run(
      new CallbackInterviewer((q) => {
        asked = q;
        return { text: 'a /health endpoint' };
      }),
      { 'human.freeform': 'true' },
      [['ship', { label: 'Build it' }]],
    );
    expect(asked).toMatchObject({ type: 'freeform', textOption: { key: 'B', target: 'ship' } });
    expect(outcome).toMatchObject({
      status: 'success',
      suggested_next_ids: ['ship'],
      context_updates: { 'human.gate.text': 'a /health endpoint', 'human.gate.selected': 'B' },
      notes: 'Human answered "a /health endpoint" (Build it)',
    });
  });

  it('a gate without human.freeform sets no human.gate.text', async () => {
    const { outcome } = await run(new QueueInterviewer(['A']));
    expect(outcome.context_updates).not.toHaveProperty('human.gate.text');
  });

  it('FAILs as cancelled when the run is aborted while waiting', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 30);
    const { outcome } = await run(never, {}, REVIEW_EDGES, controller.signal);
    expect(outcome).toEqual({ status: 'fail', failure_reason: 'cancelled' });
  });

  it('lets an interviewer bug propagate', async () => {
    const broken = new CallbackInterviewer(() => {
      throw new Error('ui crashed');
    });
    await expect(run(broken)).rejects.toThrow('ui crashed');
  });
});
