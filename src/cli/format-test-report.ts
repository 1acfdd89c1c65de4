import { relative } from 'node:path';
import type { TestFileResult } from '../pipeline-tests/run-test-file.js';
import type { PipelineCoverage } from '../pipeline-tests/test-coverage.js';
import type { Colors } from './colors.js';

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');

/** Passed and failed cases, over every file. */
export function caseCounts(files: readonly TestFileResult[]): { passed: number; failed: number } {
  const cases = files.flatMap((file) => file.cases);
  const failed = cases.filter((c) => !c.passed).length;
  return { passed: cases.length - failed, failed };
}

/** `attractor test`'s default report: a line per case, its failures under it, then the counts. */
export function formatTestReport(
  files: readonly TestFileResult[],
  colors: Colors,
  durationMs: number,
): string {
  const lines: string[] = [];
  for (const file of files) {
    lines.push(colors.bold(file.file));
    for (const c of file.cases) {
      const mark = c.passed ? colors.green('✓') : colors.red('✗');
      lines.push(`  ${mark} ${c.name} ${colors.dim(`(${Math.round(c.durationMs)} ms)`)}`);
      for (const failure of c.failures) lines.push(indent(failure, '      '));
    }
  }
  const { passed, failed } = caseCounts(files);
  const counts = `${passed} passed, ${failed} failed`;
  lines.push(
    '',
    `${failed > 0 ? colors.red(counts) : colors.green(counts)} (${files.length} test file${files.length === 1 ? '' : 's'}) in ${Math.round(durationMs)} ms`,
  );
  return `${lines.join('\n')}\n`;
}

/** `--coverage`: per pipeline, what no case exercised (nothing missed: one line saying so). */
export function formatCoverage(coverage: readonly PipelineCoverage[], cwd: string): string {
  const lines = ['', 'Coverage:'];
  for (const pipeline of coverage) {
    const { nodes, edges, conditions } = pipeline;
    lines.push(
      `  ${relative(cwd, pipeline.pipeline)}: nodes ${nodes.total - nodes.missed.length}/${nodes.total}, edges ${edges.total - edges.missed.length}/${edges.total}, condition outcomes ${conditions.total - conditions.missed.length}/${conditions.total}`,
    );
    if (nodes.missed.length > 0) lines.push(`    nodes never entered: ${nodes.missed.join(', ')}`);
    for (const edge of edges.missed)
      lines.push(
        `    edge never taken: ${edge.from} -> ${edge.to}${edge.condition ? ` [${edge.condition}]` : edge.label ? ` [${edge.label}]` : ''}`,
      );
    for (const c of conditions.missed)
      lines.push(
        `    condition never ${c.never === 'held' ? 'true' : 'false'}: ${c.from} -> ${c.to} [${c.condition ?? ''}]`,
      );
  }
  return `${lines.join('\n')}\n`;
}
