import { availableParallelism } from 'node:os';
import { concurrencyLimit } from '../shared/concurrency-limit.js';
import { findTestFiles } from './find-test-files.js';
import { loadPipelineTestFile } from './load-test-file.js';
import type { CaseRunSettings } from './run-test-case.js';
import { runTestFile, type TestFileResult } from './run-test-file.js';

const defaultJobs = (): number => Math.max(4, 2 * availableParallelism());

export interface PipelineTestOptions extends CaseRunSettings {
  /** Base of relative paths (default: the process's working directory). */
  cwd?: string;
  /**
   * Cases run at once, across files (default: twice the machine's cores, at least 4). The cases share
   * this process's one thread; running more of them than there are cores overlaps their waits (the run
   * records' writes, tool commands).
   */
  jobs?: number;
}

/**
 * `attractor test` as a library: finds the test files `paths` name, checks every one before any case
 * runs (a bad file throws its `file:line:col` error), then runs all their cases offline, at most
 * `jobs` at once.
 *
 * @example
 * const files = await runPipelineTests(['examples/'], { jobs: 4 });
 * const failed = files.flatMap((file) => file.cases).filter((c) => !c.passed);
 */
export async function runPipelineTests(
  paths: readonly string[],
  options: PipelineTestOptions = {},
): Promise<TestFileResult[]> {
  const cwd = options.cwd ?? process.cwd();
  const loaded = findTestFiles(paths, cwd).map(({ path, shownAs }) => loadPipelineTestFile(path, shownAs));
  const limit = concurrencyLimit(Math.max(1, options.jobs ?? defaultJobs()));
  return Promise.all(loaded.map((file) => runTestFile(file, limit, options)));
}
