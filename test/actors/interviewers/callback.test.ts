import { describe, expect, it } from 'vitest';
import { CallbackInterviewer } from '../../../src/actors/interviewers/callback.js';
import type { Question } from '../../../src/actors/interviewers/interviewer.js';
import { choice, signal } from './fixtures.js';

describe('CallbackInterviewer', () => {
  it.each([
    ['sync', (q: Question) => ({ selected: q.options[1]! })],
    ['async', async (q: Question) => ({ selected: q.options[1]! })],
  ])('delegates to a %s callback with the question and signal', async (_name, callback) => {
    const seen: Array<[Question, AbortSignal]> = [];
    const s = signal();
    const interviewer = new CallbackInterviewer((q, sig) => {
      seen.push([q, sig]);
      return callback(q);
    });
    expect(await interviewer.ask(choice, s)).toEqual({ selected: choice.options[1] });
    expect(seen).toEqual([[choice, s]]);
  });

  it('forwards inform when given a function', () => {
    const messages: string[] = [];
    new CallbackInterviewer(
      () => ({}),
      (m, stage) => messages.push(`${stage}:${m}`),
    ).inform('hi', 'gate');
    new CallbackInterviewer(() => ({})).inform('ignored', 'gate');
    expect(messages).toEqual(['gate:hi']);
  });
});
