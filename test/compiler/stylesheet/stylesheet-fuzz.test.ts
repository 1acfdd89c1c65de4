import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStylesheet, StylesheetSyntaxError } from '../../../src/compiler/stylesheet/index.js';

const fragments = fc.constantFrom(
  '*',
  'box',
  '.fast',
  '#id',
  '{',
  '}',
  ';',
  ':',
  ',',
  ' ',
  '\n',
  'llm_model',
  'model',
  'timeout',
  'colour',
  '30s',
  '"q v"',
  '"',
  '/*',
  '*/',
  'gpt-[5-9]*',
);

function parseOrSyntaxError(text: string): void {
  try {
    parseStylesheet(text);
  } catch (error) {
    if (!(error instanceof StylesheetSyntaxError)) throw error;
    expect(error.line).toBeGreaterThanOrEqual(1);
    expect(error.column).toBeGreaterThanOrEqual(1);
  }
}

describe('stylesheet parser fuzz', () => {
  it('any string gives a stylesheet or a StylesheetSyntaxError', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), parseOrSyntaxError), { numRuns: 2000 });
  });

  it('any sequence of stylesheet-like fragments gives a stylesheet or a StylesheetSyntaxError', () => {
    fc.assert(
      fc.property(fc.array(fragments, { maxLength: 30 }), (parts) => parseOrSyntaxError(parts.join(''))),
      { numRuns: 2000 },
    );
  });
});
