import type { Question } from '../../../src/actors/interviewers/interviewer.js';

export const choice: Question = {
  text: 'Ship it?',
  type: 'multiple_choice',
  stage: 'gate',
  options: [
    { key: 'A', label: '[A] Approve', target: 'ship' },
    { key: 'R', label: '[R] Revise', target: 'fix' },
    { key: 'S', label: 'Skip tests', target: 'skip_node' },
  ],
};

export const yesNo: Question = {
  text: 'Proceed?',
  type: 'yes_no',
  stage: 'gate',
  options: [
    { key: 'N', label: 'No', target: 'stop' },
    { key: 'Y', label: 'Yes', target: 'go' },
  ],
};

export const freeform: Question = { text: 'Why?', type: 'freeform', stage: 'gate', options: [] };

export const signal = (): AbortSignal => new AbortController().signal;
