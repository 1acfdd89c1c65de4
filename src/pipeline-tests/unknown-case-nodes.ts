import type { TestCase } from './test-file-schema.js';

/**
 * Node ids a case names that its pipeline does not have: a typo would make `not_visits` pass for
 * ever and a scripted outcome never apply, so each is a failure of the case, not a warning.
 */
export function unknownCaseNodes(testCase: TestCase, nodeIds: ReadonlySet<string>): string[] {
  const named: [string, readonly string[]][] = [
    ['nodes', Object.keys(testCase.nodes)],
    ['answers', Object.keys(testCase.answers)],
    ['router', Object.keys(testCase.router)],
    ['expect.route', testCase.expect.route ?? []],
    ['expect.visits', testCase.expect.visits ?? []],
    ['expect.not_visits', testCase.expect.not_visits ?? []],
  ];
  return named.flatMap(([where, ids]) =>
    [...new Set(ids)]
      .filter((id) => !nodeIds.has(id))
      .map((id) => `${where} names node "${id}", which the pipeline does not have`),
  );
}
