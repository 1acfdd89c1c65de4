import { describe, expect, it } from 'vitest';
import type { GraphAttrs, NodeAttrs } from '../../../src/compiler/ir.js';
import type { StageStatus } from '../../../src/compiler/outcome.js';
import { checkGoalGates } from '../../../src/compiler/routing.js';
import { buildGraph } from '../../helpers/ir-builder.js';

function check(gate: NodeAttrs, graphAttrs: GraphAttrs, outcomes: Record<string, StageStatus>) {
  const graph = buildGraph({
    attrs: graphAttrs,
    nodes: {
      start: { shape: 'Mdiamond' },
      gate: { goal_gate: true, ...gate },
      other: {},
      plan: {},
      exit: { shape: 'Msquare' },
    },
    edges: ['start -> plan -> gate -> other -> exit'],
  });
  return checkGoalGates({ graph, nodeOutcomes: outcomes });
}

describe('checkGoalGates — four-level chain', () => {
  it.each<[string, NodeAttrs, GraphAttrs, Record<string, StageStatus>, unknown]>([
    ['satisfied by success', {}, {}, { gate: 'success' }, { ok: true }],
    ['satisfied by partial_success', {}, {}, { gate: 'partial_success' }, { ok: true }],
    ['unvisited gates are not checked', {}, {}, { plan: 'fail' }, { ok: true }],
    ['fail with no target', {}, {}, { gate: 'fail' }, { ok: false, gate: 'gate' }],
    ['skipped does not satisfy', {}, {}, { gate: 'skipped' }, { ok: false, gate: 'gate' }],
    ['retry does not satisfy', {}, {}, { gate: 'retry' }, { ok: false, gate: 'gate' }],
    [
      'gate retry_target first',
      { retry_target: 'plan', fallback_retry_target: 'other' },
      { retry_target: 'start', fallback_retry_target: 'start' },
      { gate: 'fail' },
      { ok: false, gate: 'gate', target: 'plan' },
    ],
    [
      'then gate fallback_retry_target',
      { fallback_retry_target: 'other' },
      { retry_target: 'start' },
      { gate: 'fail' },
      { ok: false, gate: 'gate', target: 'other' },
    ],
    [
      'then graph retry_target',
      {},
      { retry_target: 'start', fallback_retry_target: 'plan' },
      { gate: 'fail' },
      { ok: false, gate: 'gate', target: 'start' },
    ],
    [
      'then graph fallback_retry_target',
      {},
      { fallback_retry_target: 'plan' },
      { gate: 'fail' },
      { ok: false, gate: 'gate', target: 'plan' },
    ],
    [
      'a target naming no node is skipped',
      { retry_target: 'ghost' },
      { retry_target: 'plan' },
      { gate: 'fail' },
      { ok: false, gate: 'gate', target: 'plan' },
    ],
  ])('%s', (_name, gate, graphAttrs, outcomes, expected) => {
    expect(check(gate, graphAttrs, outcomes)).toEqual(expected);
  });

  it('node ids that shadow Object.prototype are handled', () => {
    const graph = buildGraph({ nodes: { constructor: { goal_gate: true } } });
    expect(checkGoalGates({ graph, nodeOutcomes: {} })).toEqual({ ok: true });
  });
});
