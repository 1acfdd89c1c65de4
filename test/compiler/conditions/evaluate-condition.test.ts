import { describe, expect, it } from 'vitest';
import { evaluateCondition, parseCondition } from '../../../src/compiler/conditions/index.js';

const ctx = {
  tests_passed: 'true',
  approved: true,
  'context.prefixed': 'from-prefixed',
  prefixed: 'from-bare',
  ready: 'yes',
  empty: '',
  count: 7,
  score: '0.85',
  off: false,
  zero: 0,
  loop_state: 'running',
  'tool.output': 'all 12 tests PASSED',
  'tool.last_line': 'pass',
  category: 'billing',
  nested: { a: 1 },
  exit_code: '0',
};

describe('evaluateCondition', () => {
  it.each([
    ['outcome=success', 'success', true],
    ['outcome=success', 'fail', false],
    ['outcome=fail', 'fail', true],
    ['outcome!=retry', 'success', true],
    ['outcome!=retry', 'retry', false],
    ['outcome=partial_success', 'partial_success', true],
    ['outcome = success', 'success', true],
    ['outcome=success && context.tests_passed=true', 'success', true],
    ['outcome = success && tests_passed = true', 'success', true],
    ['outcome=success && context.approved', 'success', true],
    ['outcome=success && context.approved', 'fail', false],
    ['context.ready', 'success', true],
    ['context.missing', 'success', false],
    ['tests_passed', 'success', true],
    ['exit_code != 0', 'success', false],
    ['context.tests_passed=true', 'success', true],
    ['context.loop_state!=exhausted', 'success', true],
    ['', 'fail', true],
    ['   ', 'fail', true],
  ])('%j with outcome %s → %s', (condition, outcome, expected) => {
    expect(evaluateCondition(condition, { outcome, context: ctx })).toBe(expected);
  });
});

describe('evaluateCondition — key resolution', () => {
  it.each([
    ['context.prefixed=from-prefixed', true],
    ['context.prefixed=from-bare', false],
    ['prefixed=from-bare', true],
    ['context.ready=yes', true],
    ['missing=', true],
    ['missing=""', true],
    ['context.missing!=x', true],
    ['count=7', true],
    ['approved=true', true],
    ['nested=\'{"a":1}\'', true],
    ['nested contains "a"', true],
    ['tool.last_line=pass', true],
    ['context.tool.last_line=pass', true],
    ['constructor', false],
    ['toString=x', false],
    ['empty', false],
    ['off', false],
    ['off=false', true],
    ['zero', true],
  ])('%j → %s', (condition, expected) => {
    expect(evaluateCondition(condition, { outcome: 'success', context: ctx })).toBe(expected);
  });

  it('preferred_label comes from the outcome while routing, not from a stale context value', () => {
    const context = { preferred_label: 'old' };
    expect(
      evaluateCondition('preferred_label=Fix', { outcome: 'success', preferred_label: 'Fix', context }),
    ).toBe(true);
    expect(evaluateCondition('preferred_label=old', { outcome: 'success', context })).toBe(false);
    expect(evaluateCondition('preferred_label=old', { context })).toBe(true);
  });

  it('outcome falls back to the context when no outcome is given', () => {
    expect(evaluateCondition('outcome=fail', { context: { outcome: 'fail' } })).toBe(true);
    expect(evaluateCondition('outcome=fail', { outcome: 'success', context: { outcome: 'fail' } })).toBe(
      false,
    );
  });

  it('comparison is exact and case-sensitive', () => {
    expect(evaluateCondition('outcome=SUCCESS', { outcome: 'success', context: {} })).toBe(false);
    expect(
      evaluateCondition('preferred_label=fix', { outcome: 'success', preferred_label: 'Fix', context: {} }),
    ).toBe(false);
  });
});

describe('evaluateCondition — extensions', () => {
  it.each([
    ['outcome=fail || outcome=retry', 'retry', true],
    ['outcome=fail || outcome=retry', 'success', false],
    ['!context.missing', 'success', true],
    ['!(outcome=success)', 'success', false],
    ['!!outcome', 'success', true],
    ['(outcome=success || outcome=partial_success) && ready', 'partial_success', true],
    ['outcome=success || outcome=fail && off', 'success', true],
    ['(outcome=success || outcome=fail) && off', 'success', false],
    ['count > 5', 'success', true],
    ['count >= 7', 'success', true],
    ['count < 7', 'success', false],
    ['count <= 7', 'success', true],
    ['score >= 0.8', 'success', true],
    ['score < -1', 'success', false],
    ['loop_state > 1', 'success', false],
    ['missing < 1', 'success', false],
    ['count > abc', 'success', false],
    ['tool.output contains "PASSED"', 'success', true],
    ['tool.output contains "passed"', 'success', false],
    ['!tool.output contains "FAILED"', 'success', true],
    ['tool.output contains PASSED', 'success', true],
    ['category in [billing, technical]', 'success', true],
    ["category in ['technical', 'sales']", 'success', false],
    ['outcome in [fail, retry]', 'fail', true],
    ['category in []', 'success', false],
    ['context.url=https://example.com/a:b', 'success', false],
  ])('%j with outcome %s → %s', (condition, outcome, expected) => {
    expect(evaluateCondition(condition, { outcome, context: ctx })).toBe(expected);
  });

  it('accepts a parsed AST as well as text', () => {
    expect(evaluateCondition(parseCondition('count > 1'), { context: ctx })).toBe(true);
  });

  it('throws ConditionSyntaxError for text that does not parse', () => {
    expect(() => evaluateCondition('outcome == success', { context: {} })).toThrow(/use `=`/);
  });
});
