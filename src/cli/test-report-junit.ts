import type { TestFileResult } from '../pipeline-tests/run-test-file.js';
import { caseCounts } from './format-test-report.js';

/** Text as XML character data or an attribute value; characters XML 1.0 cannot hold are dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/**
 * `--reporter junit`: JUnit XML as CI systems read it — a `<testsuite>` per test file, a `<testcase>`
 * per case, a failing case's `<failure>` holding its first failure as `message` and all of them as text.
 */
export function testReportJunit(files: readonly TestFileResult[], durationMs: number): string {
  const { passed, failed } = caseCounts(files);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="attractor test" tests="${passed + failed}" failures="${failed}" errors="0" time="${seconds(durationMs)}">`,
  ];
  for (const file of files) {
    const failures = file.cases.filter((c) => !c.passed).length;
    const time = file.cases.reduce((sum, c) => sum + c.durationMs, 0);
    lines.push(
      `  <testsuite name="${escapeXml(file.file)}" tests="${file.cases.length}" failures="${failures}" errors="0" skipped="0" time="${seconds(time)}">`,
    );
    for (const c of file.cases) {
      const open = `    <testcase name="${escapeXml(c.name)}" classname="${escapeXml(file.file)}" time="${seconds(c.durationMs)}"`;
      if (c.passed) {
        lines.push(`${open}/>`);
        continue;
      }
      const first = c.failures[0]?.split('\n')[0] ?? 'failed';
      lines.push(
        `${open}>`,
        `      <failure message="${escapeXml(first)}">${escapeXml(c.failures.join('\n\n'))}</failure>`,
        '    </testcase>',
      );
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
