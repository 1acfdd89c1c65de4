import { isDeepStrictEqual } from 'node:util';
import type { RunResult } from '../run/run-types.js';
import { routeSideBySide } from './route-side-by-side.js';
import type { RunObservation } from './run-observation.js';
import type { CaseExpectations, CostLimits, FileExpectation } from './test-file-schema.js';

/** What a case's run left to check: its result, what was observed, and its working folder's files. */
export interface CaseOutcome {
  result: RunResult;
  observation: RunObservation;
  /** The text of a file of the working folder, undefined when there is none. */
  readFile: (path: string) => string | undefined;
}

const show = (value: unknown): string => JSON.stringify(value) ?? 'undefined';

function routeFailures(expect: CaseExpectations, observed: RunObservation): string[] {
  const failures: string[] = [];
  if (expect.route && !isDeepStrictEqual(expect.route, observed.route)) {
    failures.push(`route differs:\n${routeSideBySide(expect.route, observed.route)}`);
  }
  const missed = (expect.visits ?? []).filter((id) => !observed.entered.has(id));
  if (missed.length > 0)
    failures.push(`never visited ${missed.join(', ')} (route: ${observed.route.join(' → ')})`);
  const entered = (expect.not_visits ?? []).filter((id) => observed.entered.has(id));
  if (entered.length > 0)
    failures.push(`visited ${entered.join(', ')} (route: ${observed.route.join(' → ')})`);
  return failures;
}

function endingFailures(expect: CaseExpectations, result: RunResult): string[] {
  const failures: string[] = [];
  const why = result.failure
    ? ` (${result.failure.node ? `${result.failure.node}: ` : ''}${result.failure.reason})`
    : '';
  if (expect.status && expect.status !== result.status)
    failures.push(`status: expected ${expect.status}, got ${result.status}${why}`);
  if (expect.quality && expect.quality !== result.quality)
    failures.push(`quality: expected ${expect.quality}, got ${result.quality}${why}`);
  for (const [key, wanted] of Object.entries(expect.context ?? {})) {
    const actual = result.context[key];
    if (!isDeepStrictEqual(actual, wanted))
      failures.push(`context ${key}: expected ${show(wanted)}, got ${show(actual)}`);
  }
  return failures;
}

function fileFailure(path: string, wanted: FileExpectation, text: string | undefined): string | undefined {
  if (typeof wanted === 'string') {
    if (text === undefined) return `file ${path}: expected it, there is none`;
    return text === wanted ? undefined : `file ${path}: expected ${show(wanted)}, got ${show(text)}`;
  }
  if ('exists' in wanted) {
    if (wanted.exists === (text !== undefined)) return undefined;
    return wanted.exists
      ? `file ${path}: expected it, there is none`
      : `file ${path}: expected none, it exists`;
  }
  if (text === undefined) return `file ${path}: expected it, there is none`;
  return text.includes(wanted.contains)
    ? undefined
    : `file ${path}: expected it to contain ${show(wanted.contains)}, got ${show(text)}`;
}

function costFailures(limits: CostLimits | undefined, usage: Record<string, unknown> | undefined): string[] {
  if (!limits) return [];
  const spent = (key: string): number => (typeof usage?.[key] === 'number' ? usage[key] : 0);
  const checks: [string, number | undefined, string][] = [
    ['cost_usd', limits.max_usd, 'max_usd'],
    ['input_tokens', limits.max_input_tokens, 'max_input_tokens'],
    ['output_tokens', limits.max_output_tokens, 'max_output_tokens'],
  ];
  return checks
    .filter(([key, limit]) => limit !== undefined && spent(key) > limit)
    .map(([key, limit, name]) => `cost ${key}: ${spent(key)} is over ${name} ${limit}`);
}

/** Every way the case's run missed what it expects, one message each (none: it passed). */
export function checkExpectations(expect: CaseExpectations, outcome: CaseOutcome): string[] {
  return [
    ...routeFailures(expect, outcome.observation),
    ...endingFailures(expect, outcome.result),
    ...Object.entries(expect.files ?? {}).flatMap(
      ([path, wanted]) => fileFailure(path, wanted, outcome.readFile(path)) ?? [],
    ),
    ...costFailures(expect.cost, outcome.result.usage),
  ];
}
