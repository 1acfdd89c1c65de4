import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipelineTestFile } from '../../src/pipeline-tests/load-test-file.js';
import { runTestFile } from '../../src/pipeline-tests/run-test-file.js';
import { concurrencyLimit } from '../../src/shared/concurrency-limit.js';
import { tempDir } from '../helpers/temp-dir.js';

const PIPELINE = `digraph p {
  graph [goal="default goal", vars="name"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  say [shape=parallelogram, tool_command="printf '%s' \\"$name: $goal\\" > said.txt"]
  wait [shape=parallelogram, tool_command="sleep 30"]
  start -> say
  say -> exit [condition="context.slow!=true"]
  say -> wait [condition="context.slow=true"]
  wait -> exit
}
`;

async function run(cases: unknown[], settings: { timeoutMs?: number } = {}) {
  const dir = tempDir('attractor-case-');
  const casesRoot = tempDir('attractor-case-folders-');
  writeFileSync(path.join(dir, 'p.dot'), PIPELINE);
  writeFileSync(path.join(dir, 'p.test.json'), JSON.stringify({ pipeline: 'p.dot', cases }));
  const result = await runTestFile(loadPipelineTestFile(path.join(dir, 'p.test.json')), concurrencyLimit(4), {
    ...settings,
    tempRoot: casesRoot,
  });
  // Every case's folder (run directory, working folder) is gone once it has been checked.
  expect(readdirSync(casesRoot)).toEqual([]);
  return result.cases;
}

describe('runTestCase', () => {
  it('applies each case’s goal and parameters (the pipeline compiled once per distinct pair)', async () => {
    const cases = await run([
      { name: 'default goal', set: { name: 'a' }, expect: { files: { 'said.txt': 'a: default goal' } } },
      { name: 'own goal', goal: 'mine', set: { name: 'b' }, expect: { files: { 'said.txt': 'b: mine' } } },
      { name: 'wrong', set: { name: 'c' }, expect: { files: { 'said.txt': 'c: mine' } } },
    ]);
    expect(cases.map((c) => [c.name, c.failures])).toEqual([
      ['default goal', []],
      ['own goal', []],
      ['wrong', ['file said.txt: expected "c: mine", got "c: default goal"']],
    ]);
  });

  it('cancels a case still running after its time and fails it', async () => {
    const started = performance.now();
    const [slow] = await run(
      [
        {
          name: 'slow',
          set: { name: 'x' },
          nodes: { say: [{ outcome: 'success', context_updates: { slow: true } }] },
          expect: {},
        },
      ],
      { timeoutMs: 1_000 },
    );
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(slow?.status).toBe('cancelled');
    expect(slow?.failures).toEqual(['timed out: still running after 1000 ms']);
    expect(slow?.observation.route).toEqual(['start', 'say', 'wait']);
  });
});
