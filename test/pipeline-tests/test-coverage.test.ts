import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipelineTestFile } from '../../src/pipeline-tests/load-test-file.js';
import { runTestFile } from '../../src/pipeline-tests/run-test-file.js';
import { testCoverage } from '../../src/pipeline-tests/test-coverage.js';
import { concurrencyLimit } from '../../src/shared/concurrency-limit.js';
import { tempDir } from '../helpers/temp-dir.js';

// When `go` is set both conditions hold and the heavier edge wins: a->b's condition held all the same.
const PIPELINE = `digraph weights {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  a [prompt="decide"]
  b [prompt="light"]
  c [prompt="heavy"]
  d [prompt="otherwise"]
  start -> a
  a -> b [condition="outcome=success", weight=1]
  a -> c [condition="context.go=true", weight=5]
  a -> d
  b -> exit
  c -> exit
  d -> exit
}
`;

async function run(cases: unknown[], conditions = true) {
  const dir = tempDir('attractor-coverage-');
  writeFileSync(path.join(dir, 'weights.dot'), PIPELINE);
  writeFileSync(path.join(dir, 'weights.test.json'), JSON.stringify({ pipeline: 'weights.dot', cases }));
  const loaded = loadPipelineTestFile(path.join(dir, 'weights.test.json'));
  return runTestFile(loaded, concurrencyLimit(2), { conditions });
}

const heavy = {
  name: 'heavy',
  nodes: { a: [{ outcome: 'success', context_updates: { go: true } }] },
  expect: {},
};
const failing = { name: 'failing', nodes: { a: [{ outcome: 'fail' }] }, expect: { status: 'failed' } };

describe('testCoverage', () => {
  it('counts nodes entered, edges taken, and each condition as true where it held, taken or not', async () => {
    const [coverage] = testCoverage([await run([heavy])]);
    expect(coverage?.nodes).toEqual({ total: 6, missed: ['b', 'd'] });
    expect(coverage?.edges.missed.map((e) => `${e.from}->${e.to}`)).toEqual([
      'a->b',
      'a->d',
      'b->exit',
      'd->exit',
    ]);
    expect(coverage?.conditions.total).toBe(4);
    expect(coverage?.conditions.missed.map((c) => `${c.from}->${c.to} never ${c.never}`)).toEqual([
      'a->b never failed',
      'a->c never failed',
    ]);
  });

  it('adds up the cases of a pipeline: a failing case sees both conditions false', async () => {
    const [coverage] = testCoverage([await run([heavy, failing])]);
    expect(coverage?.conditions.missed).toEqual([]);
    expect(coverage?.nodes.missed).toEqual(['b', 'd']);
  });

  it('evaluates no condition unless asked (it needs the machine’s microsteps)', async () => {
    const result = await run([heavy], false);
    expect(result.cases[0]?.observation.conditions.size).toBe(0);
    expect(result.cases[0]?.observation.route).toEqual(['start', 'a', 'c', 'exit']);
  });

  it('fails a case naming a node the pipeline does not have, before running it', async () => {
    const result = await run([{ name: 'typo', answers: { gaet: ['A'] }, expect: { not_visits: ['dd'] } }]);
    expect(result.cases[0]?.failures).toEqual([
      'answers names node "gaet", which the pipeline does not have',
      'expect.not_visits names node "dd", which the pipeline does not have',
    ]);
    expect(result.cases[0]?.observation.route).toEqual([]);
  });
});
