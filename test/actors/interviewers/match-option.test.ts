import { describe, expect, it } from 'vitest';
import {
  isNoLike,
  isYesLike,
  matchOption,
  yesNoOption,
} from '../../../src/actors/interviewers/match-option.js';
import { choice, yesNo } from './fixtures.js';

describe('matchOption', () => {
  it.each<[string, string | undefined]>([
    ['A', 'ship'],
    ['a', 'ship'],
    [' r ', 'fix'],
    ['approve', 'ship'],
    ['[R] Revise', 'fix'],
    ['skip tests', 'skip_node'],
    ['skip_node', 'skip_node'],
    ['FIX', 'fix'],
    ['', undefined],
    ['nothing', undefined],
  ])('%j → %s', (answer, target) => {
    expect(matchOption(choice.options, answer)?.target).toBe(target);
  });

  it('prefers a key over a label or target that spells the same', () => {
    const options = [
      { key: 'X', label: 'S', target: 's' },
      { key: 'S', label: 'Second', target: 't' },
    ];
    expect(matchOption(options, 's')?.target).toBe('t');
  });
});

describe('yes/no helpers', () => {
  it.each([
    ['Yes', true, false],
    ['[A] Approve', true, false],
    ['LGTM', true, false],
    ['No', false, true],
    ['[R] Revise', false, true],
    ['Maybe', false, false],
  ])('%j yes-like %s, no-like %s', (label, yes, no) => {
    expect(isYesLike(label)).toBe(yes);
    expect(isNoLike(label)).toBe(no);
  });

  it('finds the yes and no options, else the first and last', () => {
    expect(yesNoOption(yesNo.options, true)?.target).toBe('go');
    expect(yesNoOption(yesNo.options, false)?.target).toBe('stop');
    expect(yesNoOption(choice.options, true)?.target).toBe('ship');
    expect(yesNoOption(choice.options, false)?.target).toBe('fix');
    expect(yesNoOption([], true)).toBeUndefined();
  });
});
