import { afterEach, describe, expect, it } from 'vitest';
import type { HandlerServices } from '../../../src/actors/handler-types.js';
import { fanInHandler } from '../../../src/actors/handlers/fan-in.js';
import type { ParallelResult } from '../../../src/actors/parallel/parallel-result.js';
import type { NodeAttrs } from '../../../src/compiler/ir.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeGraph, makeNode } from '../helpers/graph-builders.js';

const results: ParallelResult[] = [
  { branch_id: 'b', status: 'success', score: 0.5 },
  { branch_id: 'a', status: 'fail' },
  { branch_id: 'c', status: 'success', score: 0.8 },
];

describe('fanInHandler', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  async function run(
    context: Record<string, unknown>,
    attrs: NodeAttrs = {},
    overrides: Partial<HandlerServices> = {},
  ) {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const node = makeNode('join', { shape: 'tripleoctagon', ...attrs });
    return fanInHandler(
      makeInput({
        node,
        graph: makeGraph({ nodes: [node] }),
        runDir,
        services: createFakeServices(overrides),
        context,
      }),
    );
  }

  it('picks the best branch by the heuristic', async () => {
    expect(await run({ 'parallel.results': results })).toEqual({
      status: 'success',
      notes: 'Selected best candidate: c',
      context_updates: { 'parallel.fan_in.best_id': 'c', 'parallel.fan_in.best_outcome': 'success' },
    });
  });

  it.each<[string, ParallelResult[], string, string]>([
    [
      'all failed → FAIL with the least bad',
      [
        { branch_id: 'x', status: 'fail' },
        { branch_id: 'y', status: 'retry' },
      ],
      'fail',
      'y',
    ],
    [
      'a partial success counts as success',
      [
        { branch_id: 'x', status: 'partial_success' },
        { branch_id: 'y', status: 'fail' },
      ],
      'success',
      'x',
    ],
  ])('%s', async (_name, list, status, best) => {
    const outcome = await run({ 'parallel.results': list });
    expect(outcome.status).toBe(status);
    expect(outcome.context_updates?.['parallel.fan_in.best_id']).toBe(best);
  });

  it("FAILs when the parallel node's join failed, even with a branch that succeeded (k_of_n short of k)", async () => {
    const outcome = await run({
      'parallel.results': results,
      'parallel.outcome': 'fail',
      'parallel.failure_reason': '2 of 3 branches succeeded, 3 needed',
    });
    expect(outcome).toMatchObject({
      status: 'fail',
      failure_reason: "the parallel node's join failed: 2 of 3 branches succeeded, 3 needed",
      context_updates: { 'parallel.fan_in.best_id': 'c' },
    });
  });

  it.each<[string, unknown, string]>([
    ['missing', undefined, 'No parallel results to evaluate'],
    ['empty', [], 'No parallel results to evaluate'],
    ['malformed', [{ id: 'x' }], 'parallel.results is malformed'],
  ])('FAILs when parallel.results is %s', async (_name, value, reason) => {
    const outcome = await run(value === undefined ? {} : { 'parallel.results': value });
    expect(outcome.status).toBe('fail');
    expect(outcome.failure_reason).toContain(reason);
  });

  it('asks llmRank when the node has a prompt, with the candidates described', async () => {
    const asked: Array<{ prompt: string; candidates: string[] }> = [];
    const llmRank: HandlerServices['llmRank'] = async ({ prompt, candidates }) => {
      asked.push({ prompt, candidates });
      return 'b';
    };
    const outcome = await run(
      { 'parallel.results': results, goal: 'speed' },
      { prompt: 'Pick the fastest for {goal}' },
      { llmRank },
    );
    expect(outcome.context_updates?.['parallel.fan_in.best_id']).toBe('b');
    expect(asked[0]?.candidates).toEqual(['c', 'b', 'a']);
    expect(asked[0]?.prompt).toContain('Pick the fastest for speed');
    expect(asked[0]?.prompt).toContain('- c: success; score 0.8');
  });

  it.each<[string, Partial<HandlerServices>]>([
    ['llmRank answers undefined', { llmRank: async () => undefined }],
    ['llmRank answers an unknown id', { llmRank: async () => 'zzz' }],
    ['no llmRank configured', {}],
  ])('falls back to the heuristic when %s', async (_name, overrides) => {
    const outcome = await run({ 'parallel.results': results }, { prompt: 'choose' }, overrides);
    expect(outcome.context_updates?.['parallel.fan_in.best_id']).toBe('c');
  });
});
