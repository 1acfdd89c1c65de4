import { describe, expect, it } from 'vitest';
import type { Answer, Question } from '../../../src/actors/interviewers/interviewer.js';
import { resolveScriptedAnswer } from '../../../src/actors/interviewers/resolve-scripted-answer.js';
import { choice, freeform, yesNo } from './fixtures.js';

describe('resolveScriptedAnswer', () => {
  it.each<[Question, string, Answer]>([
    [choice, 'R', { selected: choice.options[1]! }],
    [choice, 'yes', { text: 'yes' }],
    [yesNo, 'y', { selected: yesNo.options[1]! }],
    [yesNo, 'NO', { selected: yesNo.options[0]! }],
    [{ ...yesNo, type: 'confirmation', options: [] }, 'yes', { value: 'yes' }],
    [{ ...yesNo, type: 'confirmation', options: [] }, 'n', { value: 'no' }],
    [freeform, 'anything', { text: 'anything' }],
  ])('%#: %j', (question, text, expected) => {
    expect(resolveScriptedAnswer(question, text)).toEqual(expected);
  });
});
