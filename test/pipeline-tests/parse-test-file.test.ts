import { describe, expect, it } from 'vitest';
import { parsePipelineTestFile } from '../../src/pipeline-tests/parse-test-file.js';
import { AttractorError } from '../../src/shared/errors.js';

/** The error `parsePipelineTestFile` throws for `text`, as the CLI prints it (`file:line:col: …`). */
function errorOf(text: string, file: string): string {
  try {
    parsePipelineTestFile(text, file);
  } catch (error) {
    if (AttractorError.isInstance(error)) {
      expect(error.code).toBe('PIPELINE_TEST_INVALID');
      return error.describe();
    }
    throw error;
  }
  throw new Error('expected an error');
}

describe('parsePipelineTestFile', () => {
  it('reads a YAML file: the case is a scenario with expectations', () => {
    const tests = parsePipelineTestFile(
      [
        'pipeline: p.dot',
        'cases:',
        '  - name: happy',
        '    nodes: { a: [{ outcome: FAIL }] }',
        '    answers: { gate: [A] }',
        '    expect: { route: [start, a], status: failed }',
      ].join('\n'),
      'p.test.yaml',
    );
    expect(tests.pipeline).toBe('p.dot');
    const [first] = tests.cases;
    expect(first?.nodes['a']?.[0]?.outcome).toBe('fail');
    expect(first?.answers).toEqual({ gate: ['A'] });
    expect(first?.router).toEqual({});
    expect(first?.expect).toEqual({ route: ['start', 'a'], status: 'failed' });
  });

  it('reads the same file written as JSON', () => {
    const tests = parsePipelineTestFile(
      '{"pipeline": "p.dot", "cases": [{"name": "n", "expect": {"visits": ["a"]}}]}',
      'p.test.json',
    );
    expect(tests.cases[0]?.expect.visits).toEqual(['a']);
  });

  // Each bad file, and where its error points: the place the problem is written.
  it.each([
    {
      what: 'JSON syntax',
      file: 'p.test.json',
      text: '{\n  "pipeline": "p.dot",\n  "cases": [,]\n}',
      error: /^p\.test\.json:3:13: not valid JSON \(unexpected ","\)/,
    },
    {
      what: 'a trailing comma YAML would accept',
      file: 'p.test.json',
      text: '{"pipeline": "p.dot", "cases": [],}',
      error: /^p\.test\.json:1:35: not valid JSON/,
    },
    {
      what: 'YAML syntax',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases:\n  - name: "unclosed\n',
      error: /^p\.test\.yaml:\d+:\d+: not valid YAML/,
    },
    {
      what: 'an unknown field, at the field',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases:\n  - name: a\n    expect: {}\n    expected_route: [a]\n',
      error: /^p\.test\.yaml:5:5: cases\.0: unknown field "expected_route"\./,
    },
    {
      what: 'an unknown expectation',
      file: 'p.test.json',
      text: '{"pipeline": "p.dot",\n "cases": [{"name": "a",\n   "expect": {"routes": []}}]}',
      error: /^p\.test\.json:3:15: cases\.0\.expect: unknown field "routes"\./,
    },
    {
      what: 'a value of the wrong type, at the value',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases:\n  - name: a\n    expect:\n      status: done\n',
      error: /^p\.test\.yaml:5:15: cases\.0\.expect\.status: Invalid option/,
    },
    {
      what: 'a missing expect, at its case',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases:\n  - name: a\n',
      error: /^p\.test\.yaml:3:5: cases\.0\.expect: /,
    },
    {
      what: 'no cases',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases: []\n',
      error: /^p\.test\.yaml:2:8: cases: /,
    },
    {
      what: 'two cases of one name',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases:\n  - { name: a, expect: {} }\n  - { name: a, expect: {} }\n',
      error: /^p\.test\.yaml:4:13: cases\.1\.name: a second case named "a"/,
    },
    {
      what: 'cost limits without a cassette',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases:\n  - name: a\n    expect:\n      cost: { max_usd: 1 }\n',
      error:
        /^p\.test\.yaml:5:13: cases\.0\.expect\.cost: expect\.cost limits what replayed model calls cost/,
    },
    {
      what: 'a file outside the working folder',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases:\n  - name: a\n    files: { ../x: hi }\n    expect: {}\n',
      error:
        /^p\.test\.yaml:4:14: cases\.0\.files\.\.\.\/x: must be a relative path inside the working folder/,
    },
    {
      what: 'a scripted outcome that is no status',
      file: 'p.test.yaml',
      text: 'pipeline: p.dot\ncases:\n  - name: a\n    nodes: { a: [{ outcome: maybe }] }\n    expect: {}\n',
      error: /^p\.test\.yaml:4:29: cases\.0\.nodes\.a\.0\.outcome: /,
    },
  ])('$what: $error', ({ file, text, error }) => {
    const message = errorOf(text, file);
    expect(message).toMatch(error);
    // One paragraph that says what a test file looks like.
    expect(message).not.toContain('\n');
    expect(message).toContain('docs/guides/testing-pipelines.md');
  });
});
