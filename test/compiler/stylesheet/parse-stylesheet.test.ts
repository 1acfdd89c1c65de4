import { describe, expect, it } from 'vitest';
import {
  checkStylesheetSyntax,
  parseStylesheet,
  StylesheetSyntaxError,
} from '../../../src/compiler/stylesheet/index.js';
import { AttractorError } from '../../../src/shared/errors.js';

describe('parseStylesheet', () => {
  it('parses the four selector kinds with their specificity', () => {
    const sheet = parseStylesheet(
      '* { llm_model: a } box { llm_model: b } .fast { llm_model: c } #review { llm_model: d }',
    );
    expect(sheet.rules.map((r) => [r.selector, r.specificity, r.order])).toEqual([
      [{ kind: 'universal' }, 0, 0],
      [{ kind: 'shape', shape: 'box' }, 1, 1],
      [{ kind: 'class', name: 'fast' }, 2, 2],
      [{ kind: 'id', id: 'review' }, 3, 3],
    ]);
  });

  it('handles multi-line rules, comments, quoted values and an optional last semicolon', () => {
    const sheet = parseStylesheet(`
      /* defaults for everyone */
      * {
        llm_model: "claude-opus-4-6";   /* quoted */
        llm_provider: anthropic
      }
      .code { reasoning_effort: 'medium'; }
    `);
    expect(sheet.rules[0]?.declarations.map((d) => [d.property, d.value, d.line])).toEqual([
      ['llm_model', 'claude-opus-4-6', 4],
      ['llm_provider', 'anthropic', 5],
    ]);
    expect(sheet.rules[1]?.declarations.map((d) => [d.property, d.value])).toEqual([
      ['reasoning_effort', 'medium'],
    ]);
  });

  it('accepts glob-like bare values and a newline between declarations', () => {
    const sheet = parseStylesheet('* {\n llm_model: gpt-[5-9]*\n llm_provider: openai\n}');
    expect(sheet.rules[0]?.declarations.map((d) => d.value)).toEqual(['gpt-[5-9]*', 'openai']);
  });

  it('expands comma-separated selectors into rules sharing the declarations', () => {
    const sheet = parseStylesheet('.a, #b { llm_model: x }');
    expect(sheet.rules.map((r) => r.selector)).toEqual([
      { kind: 'class', name: 'a' },
      { kind: 'id', id: 'b' },
    ]);
  });

  it.each([
    ['model: m', 'llm_model', 'm'],
    ['provider: p', 'llm_provider', 'p'],
    ['temperature: 0.7', 'temperature', 0.7],
    ['max_tokens: 4096', 'max_tokens', 4096],
    ['timeout: 30s', 'timeout', 30_000],
    ['timeout: 250ms', 'timeout', 250],
    ['timeout: 15m', 'timeout', 900_000],
    ['timeout: 2h', 'timeout', 7_200_000],
    ['timeout: 1.5s', 'timeout', 1500],
    ['timeout: 45', 'timeout', 45_000],
    ['max_retries: 3', 'max_retries', 3],
    ['fidelity: summary:high', 'fidelity', 'summary:high'],
  ])('%s → %s = %j', (declaration, property, value) => {
    expect(parseStylesheet(`* { ${declaration} }`).rules[0]?.declarations[0]).toMatchObject({
      property,
      value,
    });
  });

  it('parses empty input and empty blocks', () => {
    expect(parseStylesheet('  /* nothing */ ').rules).toEqual([]);
    expect(parseStylesheet('* {}').rules[0]?.declarations).toEqual([]);
  });
});

describe('checkStylesheetSyntax — errors with line and column', () => {
  it.each([
    ['* { colour: red }', 1, 5, /unknown property "colour"; allowed: llm_model, llm_provider/],
    ['* { llm_model gpt }', 1, 15, /expected ":" after "llm_model"/],
    ['* { model = gpt }', 1, 11, /write "model: value"/],
    ['* { llm_model: }', 1, 16, /missing value/],
    ['* { llm_model: a b }', 1, 16, /contains spaces/],
    ['* { llm_model: a', 1, 17, /missing "}" to close the "{" at line 1, column 3/],
    ['* llm_model: a }', 1, 3, /expected "\{" after the selector/],
    ['\n\n  { llm_model: a }', 3, 3, /expected a selector/],
    ['. { }', 1, 2, /expected a class name/],
    ['* { temperature: hot }', 1, 18, /temperature: "hot" is not a number/],
    ['* { max_tokens: -1 }', 1, 17, /not a whole number/],
    ['* { timeout: soon }', 1, 14, /not a duration/],
    ['* { fidelity: everything }', 1, 15, /not a fidelity mode/],
    ['* { llm_model: "open }', 1, 16, /unterminated quoted value/],
    ['/* open', 1, 1, /unterminated comment/],
    ['* { llm_model: a llm_provider: b }', 1, 16, /contains spaces/],
    ['* { llm_model: "a" llm_provider: b }', 1, 20, /expected ";" or "}"/],
  ])('%j → line %i column %i', (text, line, column, message) => {
    const problem = checkStylesheetSyntax(text);
    expect(problem).toMatchObject({ line, column });
    expect(problem?.message).toMatch(message);
  });

  it('throws a StylesheetSyntaxError (code STYLESHEET_SYNTAX) from parseStylesheet', () => {
    try {
      parseStylesheet('* { nope: 1 }');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(StylesheetSyntaxError);
      expect(AttractorError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'STYLESHEET_SYNTAX', line: 1, column: 5 });
      expect((error as Error).message).toMatch(/^model_stylesheet line 1, column 5: unknown property/);
    }
  });

  it('returns undefined for a valid stylesheet', () => {
    expect(checkStylesheetSyntax('* { llm_model: x; }')).toBeUndefined();
  });
});
