import { describe, expect, it } from 'vitest';
import { checkExpectations } from '../../src/pipeline-tests/check-expectations.js';
import type { RunObservation } from '../../src/pipeline-tests/run-observation.js';
import type { CaseExpectations } from '../../src/pipeline-tests/test-file-schema.js';
import type { RunResult } from '../../src/run/run-types.js';

const result: RunResult = {
  status: 'failed',
  quality: 'failed',
  runId: 'r',
  runDir: '/runs/r',
  failure: { node: 'b', reason: 'tests red' },
  context: { severity: 5, area: 'api', nested: { a: [1, 2] } },
  completedNodes: ['start', 'a', 'b'],
  failedNodes: ['b'],
  recoveredNodes: [],
  partialNodes: [],
  usage: { cost_usd: 0.25, input_tokens: 1200, output_tokens: 300 },
};
const observation: RunObservation = {
  route: ['start', 'a', 'b'],
  entered: new Set(['start', 'a', 'b', 'branch_x']),
  edgesTaken: new Set(),
  conditions: new Map(),
};
const files: Record<string, string> = { 'out.txt': 'hello world' };
const readFile = (path: string): string | undefined => files[path];

describe('checkExpectations', () => {
  it.each<[string, CaseExpectations, string[]]>([
    ['nothing expected', {}, []],
    [
      'everything as it was',
      {
        route: ['start', 'a', 'b'],
        visits: ['branch_x', 'a'],
        not_visits: ['exit'],
        status: 'failed',
        quality: 'failed',
        context: { severity: 5, nested: { a: [1, 2] } },
        files: { 'out.txt': 'hello world', 'gone.txt': { exists: false } },
      },
      [],
    ],
    [
      'another route',
      { route: ['start', 'a', 'exit'] },
      ['route differs:\n  #  expected  actual\n  1  start     start\n  2  a         a\n> 3  exit      b'],
    ],
    [
      'a node never visited, one visited',
      { visits: ['exit', 'a'], not_visits: ['b'] },
      ['never visited exit (route: start → a → b)', 'visited b (route: start → a → b)'],
    ],
    [
      'another ending, with why it failed',
      { status: 'completed', quality: 'clean' },
      [
        'status: expected completed, got failed (b: tests red)',
        'quality: expected clean, got failed (b: tests red)',
      ],
    ],
    [
      'context values compared as JSON values',
      { context: { severity: '5', missing: 1 } },
      ['context severity: expected "5", got 5', 'context missing: expected 1, got undefined'],
    ],
    [
      'files',
      { files: { 'out.txt': 'hello', 'x.txt': { exists: true }, 'y.txt': 'y' } },
      [
        'file out.txt: expected "hello", got "hello world"',
        'file x.txt: expected it, there is none',
        'file y.txt: expected it, there is none',
      ],
    ],
    [
      'file contents',
      { files: { 'out.txt': { contains: 'bye' }, 'gone.txt': { contains: 'x' } } },
      [
        'file out.txt: expected it to contain "bye", got "hello world"',
        'file gone.txt: expected it, there is none',
      ],
    ],
    [
      'a file that must not be',
      { files: { 'out.txt': { exists: false } } },
      ['file out.txt: expected none, it exists'],
    ],
    ['costs within limits', { cost: { max_usd: 0.25, max_input_tokens: 1200, max_output_tokens: 300 } }, []],
    [
      'costs over limits',
      { cost: { max_usd: 0.1, max_output_tokens: 299 } },
      ['cost cost_usd: 0.25 is over max_usd 0.1', 'cost output_tokens: 300 is over max_output_tokens 299'],
    ],
  ])('%s', (_what, expectations, failures) => {
    expect(checkExpectations(expectations, { result, observation, readFile })).toEqual(failures);
  });
});
