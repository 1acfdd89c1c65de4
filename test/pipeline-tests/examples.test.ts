import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isConditional } from '../../src/compiler/routing/select-edge.js';
import { loadPipelineTestFile } from '../../src/pipeline-tests/load-test-file.js';
import { runPipelineTests } from '../../src/pipeline-tests/run-pipeline-tests.js';
import { runTestFile } from '../../src/pipeline-tests/run-test-file.js';
import { testCoverage } from '../../src/pipeline-tests/test-coverage.js';
import { compileRun } from '../../src/run/engine.js';
import { concurrencyLimit } from '../../src/shared/concurrency-limit.js';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const pipelines = readdirSync(examples)
  .filter((name) => name.endsWith('.dot'))
  .sort();

/** The test file next to `name.dot`. */
function testFileOf(name: string): string {
  const stem = path.join(examples, path.basename(name, '.dot'));
  const found = ['json', 'yaml'].map((ext) => `${stem}.test.${ext}`).find((file) => existsSync(file));
  if (!found) throw new Error(`no test file for ${name}`);
  return found;
}

/** A condition attribute as DOT writes it: `condition="…"`, with `\"` inside. */
const CONDITION = /condition="((?:[^"\\]|\\.)*)"/g;

/** `source` with its `nth` condition attribute negated. */
function flipCondition(source: string, nth: number): string {
  let seen = -1;
  return source.replace(CONDITION, (whole, condition: string) => {
    seen += 1;
    return seen === nth ? `condition="!(${condition})"` : whole;
  });
}

describe('the examples’ tests', () => {
  it.each(pipelines)('%s has a test file next to it', (name) => {
    expect(loadPipelineTestFile(testFileOf(name)).pipelineFile).toBe(path.join(examples, name));
  });

  it('all pass, and together exercise every node, edge and condition outcome', async () => {
    const files = await runPipelineTests([examples], { conditions: true });
    const failed = files.flatMap((file) =>
      file.cases.filter((c) => !c.passed).map((c) => [file.file, c.name, c.failures]),
    );
    expect(failed).toEqual([]);
    expect(files.map((file) => path.basename(file.pipelineFile)).sort()).toEqual(pipelines);
    const missed = testCoverage(files).filter(
      (c) => c.nodes.missed.length + c.edges.missed.length + c.conditions.missed.length > 0,
    );
    expect(missed).toEqual([]);
  }, 120_000);

  // The test of the tests: a pipeline whose routing changed must fail its tests.
  const conditional = pipelines.filter((name) =>
    compileRun({
      source: loadPipelineTestFile(testFileOf(name)).source,
      file: path.join(examples, name),
    }).graph.edges.some(isConditional),
  );
  it.each(conditional)(
    '%s: flipping any edge condition makes one of its tests fail',
    async (name) => {
      const loaded = loadPipelineTestFile(testFileOf(name));
      const conditions = compileRun({ source: loaded.source, file: loaded.pipelineFile }).graph.edges.filter(
        isConditional,
      );
      // Every conditional edge is written once in the source (no chain shares a condition), so each is flipped.
      expect([...loaded.source.matchAll(CONDITION)]).toHaveLength(conditions.length);
      const limit = concurrencyLimit(4);
      const survivors = await Promise.all(
        conditions.map(async (edge, nth) => {
          const flipped = flipCondition(loaded.source, nth);
          expect(flipped).toContain(`condition="!(`);
          const result = await runTestFile(loaded, limit, { source: flipped });
          const caught = result.cases.some((c) => !c.passed);
          return caught ? [] : [`${edge.source} -> ${edge.target} [${edge.attrs.condition}]`];
        }),
      );
      expect(survivors.flat()).toEqual([]);
    },
    120_000,
  );
});
