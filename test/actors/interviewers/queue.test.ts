import { describe, expect, it } from 'vitest';
import type { Answer, Question } from '../../../src/actors/interviewers/interviewer.js';
import { QueueInterviewer } from '../../../src/actors/interviewers/queue.js';
import { choice, freeform, yesNo } from './fixtures.js';

describe('QueueInterviewer', () => {
  it.each<[string, Question, Answer]>([
    ['R', choice, { selected: choice.options[1]! }],
    ['r', choice, { selected: choice.options[1]! }],
    ['Approve', choice, { selected: choice.options[0]! }],
    ['[a] approve', choice, { selected: choice.options[0]! }],
    ['skip tests', choice, { selected: choice.options[2]! }],
    ['fix', choice, { selected: choice.options[1]! }],
    ['nonsense', { ...choice, textOption: choice.options[1]! }, { text: 'nonsense' }],
    ['y', yesNo, { selected: yesNo.options[1]! }],
    ['yes', yesNo, { selected: yesNo.options[1]! }],
    ['no', yesNo, { selected: yesNo.options[0]! }],
    ['free text', freeform, { text: 'free text' }],
  ])('answer %j to %s', async (entry, question, expected) => {
    expect(await new QueueInterviewer([entry]).ask(question)).toEqual(expected);
  });

  it('refuses an answer naming no option of a question that takes no free text', async () => {
    await expect(new QueueInterviewer(['nonsense']).ask(choice)).rejects.toThrow(
      'queued answer "nonsense" is none of the options of gate gate: [A] Approve, [R] Revise, [S] Skip tests.',
    );
  });

  it('pops answers in order and answers SKIPPED when empty', async () => {
    const queue = new QueueInterviewer(['A', 'R']);
    expect(queue.remaining()).toBe(2);
    expect((await queue.ask(choice)).selected?.key).toBe('A');
    expect((await queue.ask(choice)).selected?.key).toBe('R');
    expect(await queue.ask(choice)).toEqual({ value: 'skipped' });
    expect(queue.remaining()).toBe(0);
  });

  it('keeps one queue per stage when given a record', async () => {
    const queue = new QueueInterviewer({ gate: ['R'], other: ['A'] });
    expect((await queue.ask({ ...choice, stage: 'other' })).selected?.key).toBe('A');
    expect((await queue.ask(choice)).selected?.key).toBe('R');
    expect(await queue.ask(choice)).toEqual({ value: 'skipped' });
    expect(await queue.ask({ ...choice, stage: 'unknown' })).toEqual({ value: 'skipped' });
    expect(queue.remaining('other')).toBe(0);
  });

  it('does not share the caller array', async () => {
    const answers = ['A'];
    const queue = new QueueInterviewer(answers);
    await queue.ask(choice);
    expect(answers).toEqual(['A']);
  });
});
