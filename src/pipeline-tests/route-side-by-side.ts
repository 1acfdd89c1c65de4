/**
 * The expected and the actual route in two columns, one step a line, the first step where they part
 * marked with `>`: what a failing route assertion prints.
 *
 * @example
 * routeSideBySide(['start', 'a', 'exit'], ['start', 'b', 'exit']);
 * //   #  expected  actual
 * //   1  start     start
 * // > 2  a         b
 * //   3  exit      exit
 */
export function routeSideBySide(expected: readonly string[], actual: readonly string[]): string {
  const steps = Math.max(expected.length, actual.length);
  const width = Math.max('expected'.length, ...expected.map((id) => id.length));
  const number = String(steps).length;
  const firstDifference = Array.from({ length: steps }).findIndex((_, i) => expected[i] !== actual[i]);
  const lines = [`  ${'#'.padStart(number)}  ${'expected'.padEnd(width)}  actual`];
  for (let i = 0; i < steps; i++) {
    const mark = i === firstDifference ? '>' : ' ';
    const left = (expected[i] ?? '–').padEnd(width);
    lines.push(`${mark} ${String(i + 1).padStart(number)}  ${left}  ${actual[i] ?? '–'}`.trimEnd());
  }
  return lines.join('\n');
}
