import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  answerFromFile,
  answersDir,
  answerToFile,
  closedReason,
  nextQuestionId,
  questionsDir,
  readAnswerFile,
  readPendingQuestions,
  toQuestion,
  toQuestionFile,
  writeAnswerFile,
  writeQuestionFile,
} from '../../../src/actors/interviewers/answer-channel.js';
import {
  isAnsweredElsewhere,
  withAnswerChannel,
} from '../../../src/actors/interviewers/answer-channel-interviewer.js';
import { gateTimedOut } from '../../../src/actors/interviewers/gate-timed-out.js';
import type { Answer, Interviewer, Question } from '../../../src/actors/interviewers/interviewer.js';
import { AttractorError } from '../../../src/shared/errors.js';
import { choice, freeform, signal } from './fixtures.js';

let runDir: string;
beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), 'answer-channel-'));
});
afterEach(() => rmSync(runDir, { recursive: true, force: true }));

/** An interviewer nobody answers: it waits until aborted. */
function silent(): Interviewer & { asked: Question[]; aborted: boolean; reason?: unknown } {
  const self = {
    asked: [] as Question[],
    aborted: false,
    reason: undefined as unknown,
    ask(question: Question, s: AbortSignal): Promise<Answer> {
      self.asked.push(question);
      return new Promise((_, reject) =>
        s.addEventListener('abort', () => {
          self.aborted = true;
          self.reason = s.reason;
          reject(s.reason);
        }),
      );
    },
  };
  return self;
}

const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the answer channel', () => {
  test('a question is published while it waits; an answer file answers it; the question is then removed', async () => {
    const inner = silent();
    const asking = withAnswerChannel(inner, () => runDir).ask(choice, signal());
    await waitFor(() => readPendingQuestions(runDir).length === 1);
    const [pending] = readPendingQuestions(runDir);
    expect(pending).toMatchObject({
      node_id: 'gate',
      question: { text: 'Ship it?', type: 'multiple_choice' },
    });
    expect(pending!.id).toBe('gate-1');
    expect(toQuestion(pending!)).toEqual({ ...choice, id: 'gate-1' });
    expect(
      writeAnswerFile(runDir, {
        id: pending!.id,
        choice: 'r',
        answered_by: 'test',
        answered_at: new Date().toISOString(),
      }),
    ).toBe(true);
    await expect(asking).resolves.toEqual({ selected: choice.options[1], answeredBy: 'test' });
    expect(inner.aborted).toBe(true);
    expect(readdirSync(questionsDir(runDir))).toEqual([]);
    expect(readAnswerFile(runDir, pending!.id)).toMatchObject({ choice: 'r', answered_by: 'test' });
  });

  test('a file answer withdraws the inner ask as "answered elsewhere" and says who answered', async () => {
    const inner = silent();
    const told: string[] = [];
    const asking = withAnswerChannel(inner, () => runDir, {
      onAnsweredElsewhere: (q, answer, file) =>
        told.push(`${q.stage} ${answer.selected?.key} ${file.answered_by}`),
    }).ask(choice, signal());
    await waitFor(() => readPendingQuestions(runDir).length === 1);
    const id = readPendingQuestions(runDir)[0]!.id;
    writeAnswerFile(runDir, {
      id,
      choice: 'A',
      answered_by: 'attach',
      answered_at: new Date().toISOString(),
    });
    await expect(asking).resolves.toEqual({ selected: choice.options[0], answeredBy: 'attach' });
    expect(isAnsweredElsewhere(inner.reason)).toBe(true);
    expect(told).toEqual(['gate A attach']);
  });

  test('a cancelled gate withdraws the inner ask with the run\'s own reason, not "answered elsewhere"', async () => {
    const inner = silent();
    const controller = new AbortController();
    const asking = withAnswerChannel(inner, () => runDir).ask(choice, controller.signal);
    await waitFor(() => readPendingQuestions(runDir).length === 1);
    controller.abort(new Error('run cancelled'));
    await expect(asking).rejects.toThrow('run cancelled');
    expect(isAnsweredElsewhere(inner.reason)).toBe(false);
  });

  test('an answer from the wrapped interviewer is recorded, so a later answer file finds it taken', async () => {
    let asked: (answer: Answer) => void = () => {};
    const inner: Interviewer = { ask: () => new Promise((resolve) => (asked = resolve)) };
    const asking = withAnswerChannel(inner, () => runDir, { answeredBy: 'terminal' }).ask(choice, signal());
    await waitFor(() => readPendingQuestions(runDir).length === 1);
    const id = readPendingQuestions(runDir)[0]!.id;
    asked({ selected: choice.options[1]! });
    await expect(asking).resolves.toEqual({ selected: choice.options[1], answeredBy: 'terminal' });
    expect(readAnswerFile(runDir, id)).toMatchObject({ choice: 'R', answered_by: 'terminal' });
    expect(writeAnswerFile(runDir, { id, choice: 'A', answered_at: new Date().toISOString() })).toBe(false);
  });

  test('close() of the wrapped interviewer is kept', () => {
    let closed = false;
    const wrapped = withAnswerChannel(
      { ask: async () => ({ value: 'yes' }), close: () => (closed = true) },
      () => runDir,
    );
    wrapped.close?.();
    expect(closed).toBe(true);
  });

  test('a question its gate left when the process died is asked again under the same id', async () => {
    writeQuestionFile(runDir, toQuestionFile('gate-1-1', choice, new Date(0)));
    writeQuestionFile(runDir, toQuestionFile('other-1-1', { ...choice, stage: 'other' }, new Date(0)));
    const asking = withAnswerChannel(silent(), () => runDir).ask(choice, signal());
    await waitFor(() => readPendingQuestions(runDir).some((q) => q.asked_at !== new Date(0).toISOString()));
    expect(readPendingQuestions(runDir).map((q) => q.id)).toEqual(['other-1-1', 'gate-1-1']);
    writeAnswerFile(runDir, { id: 'gate-1-1', choice: 'S', answered_at: new Date().toISOString() });
    await expect(asking).resolves.toEqual({ selected: choice.options[2] });
    expect(readPendingQuestions(runDir).map((q) => q.id)).toEqual(['other-1-1']);
  });

  test('an answer written while the process was dead answers the gate when it asks again', async () => {
    writeQuestionFile(runDir, toQuestionFile('gate-1-1', choice, new Date(0)));
    writeAnswerFile(runDir, { id: 'gate-1-1', choice: 'R', answered_by: 'attach', answered_at: '' });
    const inner = silent();
    await expect(withAnswerChannel(inner, () => runDir).ask(choice, signal())).resolves.toEqual({
      selected: choice.options[1],
      answeredBy: 'attach',
    });
    // Not asked at all (a console would reject at once on the withdrawn signal and lose the race).
    expect(inner.asked).toEqual([]);
    expect(readdirSync(questionsDir(runDir))).toEqual([]);
  });

  test('the first answer wins: a second answer file is refused', async () => {
    const asking = withAnswerChannel(silent(), () => runDir).ask(choice, signal());
    await waitFor(() => readPendingQuestions(runDir).length === 1);
    const id = readPendingQuestions(runDir)[0]!.id;
    const at = new Date().toISOString();
    expect(writeAnswerFile(runDir, { id, choice: 'A', answered_at: at })).toBe(true);
    expect(writeAnswerFile(runDir, { id, choice: 'R', answered_at: at })).toBe(false);
    await expect(asking).resolves.toEqual({ selected: choice.options[0] });
  });

  test('an answer from the terminal removes the question and ignores the channel', async () => {
    const inner: Interviewer = { ask: async () => ({ selected: choice.options[2]! }) };
    await expect(withAnswerChannel(inner, () => runDir).ask(choice, signal())).resolves.toEqual({
      selected: choice.options[2],
      // The wrapped interviewer said nobody: the channel's default is recorded and returned.
      answeredBy: 'run',
    });
    expect(readPendingQuestions(runDir)).toEqual([]);
  });

  test('a run that stops while its gate waits leaves the question open for the resumed gate', async () => {
    const controller = new AbortController();
    const asking = withAnswerChannel(silent(), () => runDir).ask(choice, controller.signal);
    await waitFor(() => readPendingQuestions(runDir).length === 1);
    controller.abort(new AttractorError('CANCELLED', 'run cancelled'));
    await expect(asking).rejects.toThrow('run cancelled');
    expect(readPendingQuestions(runDir).map((q) => q.id)).toEqual(['gate-1']);
    // Answered while the run is stopped: the resumed gate (same visit, same id) takes that answer.
    writeAnswerFile(runDir, { id: 'gate-1', choice: 'R', answered_at: new Date().toISOString() });
    const inner = silent();
    await expect(withAnswerChannel(inner, () => runDir).ask(choice, signal())).resolves.toEqual({
      selected: choice.options[1],
    });
    expect(inner.asked).toEqual([]);
  });

  test.each([
    ['its gate timed out', gateTimedOut(50), 'timed_out', /timed out/],
    ['the interviewer gave up', undefined, 'withdrawn', /stopped waiting/],
  ] as const)(
    'a question closes for good when %s: a late answer finds it taken',
    async (_n, reason, closed, said) => {
      const controller = new AbortController();
      const inner: Interviewer = reason
        ? silent()
        : { ask: () => Promise.reject(new AttractorError('NO_INTERVIEWER', 'nobody to ask')) };
      const asking = withAnswerChannel(inner, () => runDir).ask(choice, controller.signal);
      if (reason) {
        await waitFor(() => readPendingQuestions(runDir).length === 1);
        controller.abort(reason);
      }
      await expect(asking).rejects.toThrow();
      expect(readPendingQuestions(runDir)).toEqual([]);
      expect(readAnswerFile(runDir, 'gate-1')).toMatchObject({ closed, answered_by: 'run' });
      expect(writeAnswerFile(runDir, { id: 'gate-1', choice: 'A', answered_at: '' })).toBe(false);
      expect(closedReason(runDir, 'gate-1')).toMatch(said);
    },
  );

  test('each asking of a gate gets a new id, never one an earlier visit used', async () => {
    const ids: string[] = [];
    const inner: Interviewer = {
      ask: async (q) => {
        ids.push(q.id ?? '?');
        return { selected: choice.options[0]! };
      },
    };
    const channel = withAnswerChannel(inner, () => runDir);
    await channel.ask(choice, signal());
    await channel.ask(choice, signal());
    await channel.ask({ ...choice, stage: 'other gate' }, signal());
    // Even a new process (a resume) continues the numbering from the run directory.
    await withAnswerChannel(inner, () => runDir).ask(choice, signal());
    expect(ids).toEqual(['gate-1', 'gate-2', 'other_gate-1', 'gate-3']);
    expect(readAnswerFile(runDir, 'gate-1')).toMatchObject({ choice: 'A' });
    expect(nextQuestionId(runDir, 'gate')).toBe('gate-4');
  });

  test('an answer file naming no option is moved aside with the reason; the question keeps waiting', async () => {
    const refused: string[] = [];
    const asking = withAnswerChannel(silent(), () => runDir, {
      onRefused: (_q, _file, reason) => refused.push(reason),
    }).ask(choice, signal());
    await waitFor(() => readPendingQuestions(runDir).length === 1);
    writeAnswerFile(runDir, { id: 'gate-1', choice: 'looks fine', answered_at: new Date().toISOString() });
    await waitFor(() => refused.length === 1);
    expect(refused[0]).toBe(
      '"looks fine" is none of the options of gate gate: [A] Approve, [R] Revise, [S] Skip tests',
    );
    expect(readPendingQuestions(runDir).map((q) => q.id)).toEqual(['gate-1']);
    const aside = readdirSync(answersDir(runDir)).filter((f) => f.includes('.refused-'));
    expect(aside).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(answersDir(runDir), aside[0]!), 'utf8'))).toMatchObject({
      choice: 'looks fine',
      refused: refused[0],
    });
    expect(
      writeAnswerFile(runDir, { id: 'gate-1', choice: 'S', answered_at: new Date().toISOString() }),
    ).toBe(true);
    await expect(asking).resolves.toEqual({ selected: choice.options[2] });
  });

  test('a gate that takes free text gets it through a file, with the option it follows', async () => {
    const question = { ...choice, textOption: choice.options[1]! };
    const asking = withAnswerChannel(silent(), () => runDir).ask(question, signal());
    await waitFor(() => readPendingQuestions(runDir).length === 1);
    expect(readPendingQuestions(runDir)[0]?.question.text_option).toBe('R');
    writeAnswerFile(runDir, { id: 'gate-1', text: 'add tests first', answered_at: new Date().toISOString() });
    await expect(asking).resolves.toEqual({ text: 'add tests first' });
  });

  test('before the run directory is known, the wrapped interviewer alone is asked', async () => {
    const inner: Interviewer = { ask: async () => ({ value: 'yes' }) };
    await expect(withAnswerChannel(inner, () => undefined).ask(choice, signal())).resolves.toEqual({
      value: 'yes',
    });
    expect(existsSync(questionsDir(runDir))).toBe(false);
  });

  test.each([
    [choice, { choice: 'Revise' }, { selected: choice.options[1] }],
    [choice, { choice: 'fix' }, { selected: choice.options[1] }],
    [choice, { choice: 'something else' }, { text: 'something else' }],
    [choice, { closed: 'timed_out' as const }, undefined],
    [freeform, { text: 'because' }, { text: 'because' }],
    [choice, { value: 'skipped' as const }, { value: 'skipped' }],
  ])('answer file %#: %o means %o', (question, fields, expected) => {
    expect(answerFromFile(question, { id: 'x', answered_at: '', ...fields })).toEqual(expected);
  });

  test('answers given in a TUI round-trip through the file form', () => {
    const file = answerToFile('q1', { selected: choice.options[0]! }, 'attach', new Date(0));
    expect(file).toEqual({
      id: 'q1',
      choice: 'A',
      answered_by: 'attach',
      answered_at: '1970-01-01T00:00:00.000Z',
    });
    expect(answerFromFile(choice, file)).toEqual({ selected: choice.options[0] });
  });
});
