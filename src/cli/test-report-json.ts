import { relative } from 'node:path';
import type { TestFileResult } from '../pipeline-tests/run-test-file.js';
import type { PipelineCoverage } from '../pipeline-tests/test-coverage.js';
import { definedFields } from '../shared/defined-fields.js';
import { caseCounts } from './format-test-report.js';

/**
 * `--reporter json`: one JSON object, for scripts —
 * `{"passed", "failed", "duration_ms", "files": [{"file", "pipeline", "cases": [{"name", "passed",
 * "failures", "route", "status"?, "duration_ms"}]}], "coverage"?}`.
 */
export function testReportJson(
  files: readonly TestFileResult[],
  durationMs: number,
  coverage: readonly PipelineCoverage[] | undefined,
  cwd: string,
): string {
  const report = {
    ...caseCounts(files),
    duration_ms: Math.round(durationMs),
    files: files.map((file) => ({
      file: file.file,
      pipeline: file.pipeline,
      cases: file.cases.map((c) => ({
        name: c.name,
        passed: c.passed,
        failures: c.failures,
        route: c.observation.route,
        ...definedFields({ status: c.status }),
        duration_ms: Math.round(c.durationMs),
      })),
    })),
    ...(coverage ? { coverage: coverage.map((c) => ({ ...c, pipeline: relative(cwd, c.pipeline) })) } : {}),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
