import { describe, expect, it } from 'vitest';
import { scenarioKeyLocations } from '../../../src/actors/simulated/scenario-key-locations.js';

describe('scenarioKeyLocations', () => {
  it('finds the node ids under "nodes" and "answers", not the keys of their entries or elsewhere', () => {
    const text = [
      '{',
      '  "nodes": {',
      '    "review": [{ "outcome": "fail", "context_updates": { "gate": "x" } }],',
      '    "we\\"ird": [{ "outcome": "success" }]',
      '  },',
      '  "answers": { "gate": ["A"], "review": ["B"] }',
      '}',
    ].join('\n');
    expect(Object.fromEntries(scenarioKeyLocations(text))).toEqual({
      review: { line: 3, column: 5 },
      'we"ird': { line: 4, column: 5 },
      gate: { line: 6, column: 16 },
    });
  });

  it('a string value that looks like a key is not one', () => {
    expect(scenarioKeyLocations('{"nodes": {"a": [{"notes": "b:"}]}}').has('b:')).toBe(false);
  });
});
