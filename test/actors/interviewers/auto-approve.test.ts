import { describe, expect, it } from 'vitest';
import { AutoApproveInterviewer } from '../../../src/actors/interviewers/auto-approve.js';
import type { Answer, Question } from '../../../src/actors/interviewers/interviewer.js';
import { choice, freeform, yesNo } from './fixtures.js';

describe('AutoApproveInterviewer', () => {
  it.each<[string, Question, Answer]>([
    ['multiple choice → first option', choice, { selected: choice.options[0]! }],
    // The first option whatever the gate's type: a yes/no gate whose first edge is "No" takes "No".
    ['yes/no whose first option is No → No', yesNo, { value: 'no', selected: yesNo.options[0]! }],
    [
      'yes/no whose first option is Yes → Yes',
      { ...yesNo, options: [...yesNo.options].reverse() },
      { value: 'yes', selected: yesNo.options[1]! },
    ],
    ['confirmation without options → YES', { ...yesNo, type: 'confirmation', options: [] }, { value: 'yes' }],
    ['freeform → the value auto-approved', freeform, { value: 'auto-approved' }],
    ['no options → the value auto-approved', { ...choice, options: [] }, { value: 'auto-approved' }],
  ])('%s', async (_name, question, expected) => {
    expect(await new AutoApproveInterviewer().ask(question)).toEqual(expected);
  });
});
