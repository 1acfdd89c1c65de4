import { expect, test } from 'vitest';
import type { Question } from '../../src/actors/interviewers/interviewer.js';
import { type GateKey, gateInput, initialGateInput } from '../../src/tui/gate-input.js';

const choice: Question = {
  text: 'Ship it?',
  type: 'multiple_choice',
  stage: 'review',
  options: [
    { key: 'A', label: '[A] Approve', target: 'done' },
    { key: 'R', label: '[R] Revise', target: 'plan' },
  ],
};
const freeform: Question = { text: 'Why?', type: 'freeform', stage: 'ask', options: [] };

function press(question: Question, keys: GateKey[]) {
  let state = initialGateInput(question);
  for (const key of keys) {
    const result = gateInput(question, state, key);
    state = result.state;
    if (result.answer) return { state, answer: result.answer };
  }
  return { state, answer: undefined };
}

const k = (input: string, extra: Partial<GateKey> = {}): GateKey => ({ input, ...extra });

test.each([
  ['the accelerator key answers at once', choice, [k('r')], { selected: choice.options[1] }],
  [
    'Enter takes the highlighted (first) option',
    choice,
    [k('', { return: true })],
    { selected: choice.options[0] },
  ],
  [
    '↓ then Enter takes the second',
    choice,
    [k('', { downArrow: true }), k('', { return: true })],
    { selected: choice.options[1] },
  ],
  [
    '↑ wraps to the last',
    choice,
    [k('', { upArrow: true }), k('', { return: true })],
    { selected: choice.options[1] },
  ],
  [
    '/ types a free-form answer that names an option',
    choice,
    [k('/'), k('R'), k('e'), k('v'), k('i'), k('s'), k('e'), k('', { return: true })],
    { selected: choice.options[1] },
  ],
  [
    'free text is an answer at a gate that takes it',
    { ...choice, textOption: choice.options[1]! },
    [k('/'), k('m'), k('a'), k('y'), k('b'), k('e'), k('', { return: true })],
    { text: 'maybe' },
  ],
  [
    'a free-form question takes typed text, backspace edits',
    freeform,
    [k('n'), k('o'), k('p'), k('', { backspace: true }), k('', { return: true })],
    { text: 'no' },
  ],
  ['an unknown key does nothing', choice, [k('z')], undefined],
  ['Enter on an empty free-form answer does nothing', freeform, [k('', { return: true })], undefined],
])('%s', (_name, question, keys, expected) => {
  expect(press(question, keys).answer).toEqual(expected);
});

test('text naming no option of a gate that takes no free text is refused: the gate stays open and says why', () => {
  const yesNo: Question = {
    ...choice,
    type: 'yes_no',
    options: [
      { key: 'Y', label: 'Yes', target: 'ship' },
      { key: 'N', label: 'No', target: 'plan' },
    ],
  };
  const typed = [...'looks fine'].map((c) => k(c));
  const result = press(yesNo, [k('/'), ...typed, k('', { return: true })]);
  expect(result.answer).toBeUndefined();
  expect(result.state).toMatchObject({
    typing: true,
    typed: 'looks fine',
    error: '"looks fine" is none of the options of gate review: [Y] Yes, [N] No',
  });
  // The next key clears the message; the person can still answer.
  const after = press(yesNo, [k('/'), ...typed, k('', { return: true }), k('', { escape: true }), k('n')]);
  expect(after.answer).toEqual({ selected: yesNo.options[1] });
  expect(after.state.error).toBeUndefined();
});

test('Esc leaves typing mode on a choice question', () => {
  expect(press(choice, [k('/'), k('x'), k('', { escape: true })]).state).toEqual({
    cursor: 0,
    typed: '',
    typing: false,
  });
});

test('yes/no questions take y and n', () => {
  const yesNo: Question = { ...choice, type: 'yes_no' };
  expect(press(yesNo, [k('y')]).answer).toMatchObject({ value: 'yes', selected: choice.options[0] });
});
