import { describe, expect, it } from 'vitest';
import { AutoApproveInterviewer } from '../../../src/actors/interviewers/auto-approve.js';
import type { Answer, Question } from '../../../src/actors/interviewers/interviewer.js';
import { choice, freeform, yesNo } from './fixtures.js';

describe('AutoApproveInterviewer', () => {
  it.each<[string, Question, Answer]>([
    ['multiple choice → first option', choice, { selected: choice.options[0]! }],
    ['yes/no → YES and the yes option', yesNo, { value: 'yes', selected: yesNo.options[1]! }],
    ['confirmation → YES', { ...yesNo, type: 'confirmation', options: [] }, { value: 'yes' }],
    ['freeform → auto-approved', freeform, { text: 'auto-approved' }],
    ['no options → skipped', { ...choice, options: [] }, { value: 'skipped' }],
  ])('%s', async (_name, question, expected) => {
    expect(await new AutoApproveInterviewer().ask(question)).toEqual(expected);
  });
});
