import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, type TestServer, testServer, waitFor } from './server-fixtures.js';

afterEach(closeServers);

/** A gate that loops: Revise goes back through `rework` to the same gate, so it is visited again. */
const LOOP_PIPELINE = `digraph loop {
  start [shape=Mdiamond]
  review [shape=hexagon, label="Ship it?"]
  rework [prompt="Rework"]
  exit [shape=Msquare]
  start -> review
  review -> exit [label="[S] Ship"]
  review -> rework [label="[R] Revise"]
  rework -> review
}
`;

/** Shaped like a yes/no gate, but its FIRST edge is the "No" path. */
const NO_FIRST_PIPELINE = `digraph no_first {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Deploy?"]
  stop [prompt="Stop"]
  go [prompt="Go"]
  exit [shape=Msquare]
  start -> gate
  gate -> stop [label="[N] No"]
  gate -> go [label="[Y] Yes"]
  stop -> exit
  go -> exit
}
`;

async function pending(server: TestServer, run: string, notId?: string) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${run}/questions`);
    return body.find((q: { id: string }) => q.id !== notId);
  }, 'a pending question');
}

async function finished(server: TestServer, run: string) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${run}`);
    return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, `run ${run} to end`);
}

const answer = (server: TestServer, run: string, qid: string, text: string) =>
  server.json('POST', `/pipelines/${run}/questions/${qid}/answer`, { answer: text });

describe('attractor serve: answers to human gates', () => {
  it.each(['Q', '', 'looks fine'])(
    'an answer naming no option (%j) is 422 listing the options; the run keeps waiting',
    async (text) => {
      const server = await testServer();
      const { body: run } = await server.json('POST', '/pipelines', {
        dot_source: LOOP_PIPELINE,
        dry_run: true,
      });
      const question = await pending(server, run.id);
      expect(question).toMatchObject({ id: 'review-1', accepts_text: false });
      const refused = await answer(server, run.id, question.id, text);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: 'ANSWER_NO_OPTION',
        message: `${text === '' ? 'an empty answer' : JSON.stringify(text)} is none of the options of gate review: [S] Ship, [R] Revise.`,
        question_id: 'review-1',
        options: [
          { key: 'S', label: '[S] Ship' },
          { key: 'R', label: '[R] Revise' },
        ],
        accepts_text: false,
      });
      // Still waiting, same question; nothing was routed.
      expect((await server.json('GET', `/pipelines/${run.id}`)).body.status).toBe('waiting');
      expect(
        (await server.json('GET', `/pipelines/${run.id}/questions`)).body.map((q: { id: string }) => q.id),
      ).toEqual(['review-1']);
      expect((await answer(server, run.id, 'review-1', 'ship')).status).toBe(200);
      expect(await finished(server, run.id)).toMatchObject({ status: 'completed', stopped_at: 'exit' });
    },
  );

  it('a second visit of a gate asks a new question; the earlier visit’s id is 409', async () => {
    const server = await testServer();
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: LOOP_PIPELINE,
      dry_run: true,
    });
    const first = await pending(server, run.id);
    expect((await answer(server, run.id, first.id, 'R')).status).toBe(200);
    const second = await pending(server, run.id, first.id);
    expect(second.id).not.toBe(first.id);
    expect([first.id, second.id]).toEqual(['review-1', 'review-2']);
    // A retried or double-clicked POST of the first answer: refused, the new question untouched.
    const stale = await answer(server, run.id, first.id, 'S');
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'QUESTION_NOT_PENDING' });
    expect(stale.body.error.message).toMatch(/earlier visit/);
    expect(
      (await server.json('GET', `/pipelines/${run.id}/questions`)).body.map((q: { id: string }) => q.id),
    ).toEqual(['review-2']);
    expect((await answer(server, run.id, second.id, 'S')).status).toBe(200);
    await finished(server, run.id);
    const checkpoint = await server.json('GET', `/pipelines/${run.id}/checkpoint`);
    expect(checkpoint.body.context['internal.visit_count.review']).toBe(2);
  });

  it('a gate with human.freeform takes free text over HTTP and keeps it in the context', async () => {
    const server = await testServer();
    const source = LOOP_PIPELINE.replace('label="Ship it?"', 'label="Ship it?", human.freeform="R"');
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: source, dry_run: true });
    const question = await pending(server, run.id);
    expect(question).toMatchObject({ accepts_text: true, text_option: 'R' });
    expect((await answer(server, run.id, question.id, 'add a test for the empty case')).status).toBe(200);
    await pending(server, run.id, question.id);
    const context = await server.json('GET', `/pipelines/${run.id}/context`);
    expect(context.body.context).toMatchObject({
      'human.gate.text': 'add a test for the empty case',
      'human.gate.selected': 'R',
    });
  });

  it('auto_approve takes the first edge of a yes/no gate, even when it is "No"', async () => {
    const server = await testServer();
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: NO_FIRST_PIPELINE,
      dry_run: true,
      auto_approve: true,
    });
    await finished(server, run.id);
    const checkpoint = await server.json('GET', `/pipelines/${run.id}/checkpoint`);
    expect(checkpoint.body.completed_nodes).toContain('stop');
    expect(checkpoint.body.completed_nodes).not.toContain('go');
  });
});
