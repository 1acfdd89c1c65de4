import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type PipelineTestOptions, runPipelineTests } from '../pipeline-tests/run-pipeline-tests.js';
import type { TestFileResult } from '../pipeline-tests/run-test-file.js';
import { testCoverage } from '../pipeline-tests/test-coverage.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import type { CliContext } from './cli-context.js';
import { cliSandbox } from './cli-sandbox.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';
import { caseCounts, formatCoverage, formatTestReport } from './format-test-report.js';
import { testReportJson } from './test-report-json.js';
import { testReportJunit } from './test-report-junit.js';

export interface TestFlags {
  reporter?: 'default' | 'json' | 'junit';
  output?: string;
  coverage?: boolean;
  jobs?: number;
  sandbox?: 'on' | 'off';
}

function report(
  files: readonly TestFileResult[],
  flags: TestFlags,
  ctx: CliContext,
  durationMs: number,
): string {
  const coverage = flags.coverage ? testCoverage(files) : undefined;
  switch (flags.reporter ?? 'default') {
    case 'json':
      return testReportJson(files, durationMs, coverage, ctx.io.cwd);
    case 'junit':
      return testReportJunit(files, durationMs);
    default:
      return (
        formatTestReport(files, ctx.colors, durationMs) +
        (coverage ? formatCoverage(coverage, ctx.io.cwd) : '')
      );
  }
}

/**
 * `attractor test [PATH…]`: runs the pipeline tests the paths name, offline, and reports them on stdout
 * or in `--output FILE`. Exit 0 when every case passed, 1 otherwise (a bad test file: its error, exit 1).
 */
export async function runTest(paths: readonly string[], flags: TestFlags, ctx: CliContext): Promise<number> {
  const started = performance.now();
  const options: PipelineTestOptions = {
    cwd: ctx.io.cwd,
    sandbox: cliSandbox(flags.sandbox, ctx.io.stderr),
    conditions: flags.coverage === true,
    ...(flags.jobs ? { jobs: flags.jobs } : {}),
  };
  const files = await runPipelineTests(paths, options);
  const text = report(files, flags, ctx, performance.now() - started);
  if (flags.output) {
    const target = path.resolve(ctx.io.cwd, flags.output);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileAtomic(target, text);
    const { passed, failed } = caseCounts(files);
    ctx.io.stderr(`attractor: ${passed} passed, ${failed} failed; report in ${flags.output}\n`);
  } else ctx.io.stdout(text);
  return caseCounts(files).failed > 0 ? EXIT_FAILURE : EXIT_OK;
}
