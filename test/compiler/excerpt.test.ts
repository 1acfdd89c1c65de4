import { describe, expect, it } from 'vitest';
import { EXCERPT_LENGTH, excerpt } from '../../src/compiler/excerpt.js';

describe('excerpt', () => {
  it.each([
    ['', ''],
    ['short', 'short'],
    ['x'.repeat(EXCERPT_LENGTH), 'x'.repeat(EXCERPT_LENGTH)],
    ['x'.repeat(EXCERPT_LENGTH + 1), `${'x'.repeat(EXCERPT_LENGTH)}… (${EXCERPT_LENGTH + 1} characters)`],
  ])('%j → %j', (text, expected) => {
    expect(excerpt(text)).toBe(expected);
  });

  it('does not split a surrogate pair at the cut', () => {
    const text = `${'a'.repeat(EXCERPT_LENGTH - 1)}😀${'b'.repeat(10)}`;
    const out = excerpt(text);
    expect(out.startsWith(`${'a'.repeat(EXCERPT_LENGTH - 1)}…`)).toBe(true);
    expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
