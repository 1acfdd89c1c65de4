import { compileRun } from '../run/engine.js';
import type { ConcurrencyLimit } from '../shared/concurrency-limit.js';
import { definedFields } from '../shared/defined-fields.js';
import type { CompiledCase } from './compiled-case.js';
import type { LoadedTestFile } from './load-test-file.js';
import { type CaseResult, type CaseRunSettings, runTestCase } from './run-test-case.js';
import type { TestCase } from './test-file-schema.js';

/** How a test file's cases went, with its pipeline's graph (coverage reads it). */
export interface TestFileResult {
  file: string;
  /** The pipeline as the test file names it, and its absolute path. */
  pipeline: string;
  pipelineFile: string;
  graph: CompiledCase['compiled']['graph'];
  cases: CaseResult[];
}

/** What of a case changes how its pipeline compiles. */
type CaseSetup = Pick<TestCase, 'goal' | 'set'>;

/** The pipeline compiled once per distinct goal and parameters among the cases. */
function compilerFor(loaded: LoadedTestFile, source: string): (testCase: CaseSetup) => CompiledCase {
  const cache = new Map<string, CompiledCase>();
  return (testCase) => {
    const key = JSON.stringify([testCase.goal ?? null, testCase.set ?? null]);
    const known = cache.get(key);
    if (known) return known;
    const compiled = compileRun({
      source,
      file: loaded.pipelineFile,
      ...definedFields({ goal: testCase.goal, vars: testCase.set }),
    });
    const made: CompiledCase = {
      testFile: loaded.path,
      pipelineFile: loaded.pipelineFile,
      source,
      compiled,
      nodeIds: new Set(compiled.graph.nodes.map((node) => node.id)),
    };
    cache.set(key, made);
    return made;
  };
}

/**
 * Runs a test file's cases, each when `limit` has a slot. `source` replaces the pipeline's own source
 * (a test of the tests runs them against a changed pipeline). A pipeline that does not compile throws.
 */
export async function runTestFile(
  loaded: LoadedTestFile,
  limit: ConcurrencyLimit,
  settings: CaseRunSettings & { source?: string } = {},
): Promise<TestFileResult> {
  const compile = compilerFor(loaded, settings.source ?? loaded.source);
  const compiled = loaded.tests.cases.map((testCase) => compile(testCase));
  const cases = await Promise.all(
    loaded.tests.cases.map((testCase, i) =>
      limit(() => runTestCase(compiled[i] ?? compile(testCase), testCase, settings)),
    ),
  );
  return {
    file: loaded.shownAs,
    pipeline: loaded.tests.pipeline,
    pipelineFile: loaded.pipelineFile,
    // Coverage counts nodes and edges, which no goal or parameter changes: the first case's graph
    // (a pipeline whose parameters have no default compiles only with a case's values).
    graph: (compiled[0] ?? compile({})).compiled.graph,
    cases,
  };
}
