import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyCheckpointDelta,
  type CheckpointParts,
  checkpointDelta,
  checkpointText,
} from '../../src/machines/checkpoint-delta.js';
import { foldJournal } from '../../src/machines/checkpoint-journal.js';
import { countVisit } from '../../src/machines/visit-counts.js';

const start: CheckpointParts = {
  header: {
    timestamp: 1,
    current_node: 'start',
    completed_nodes: [],
    node_retries: {},
    logs: [],
    pipeline: 'p',
    run_id: 'r',
    status: 'running',
    node_outcomes: {},
    steps: 0,
    restarts: 0,
    failed_nodes: [],
    source_sha256: 'abc',
  },
  values: { goal: 'ship' },
  visits: [],
};

/** One step of a run, made the way the machine makes them: new objects for what changed, shared the rest. */
type Change = (parts: CheckpointParts) => CheckpointParts;
const node = fc.constantFrom('a', 'b', 'c', 'd');
const changes: fc.Arbitrary<Change>[] = [
  node.map((id) => (p) => ({
    ...p,
    header: { ...p.header, completed_nodes: [...p.header.completed_nodes, id], steps: p.header.steps + 1 },
    visits: countVisit(p.visits, id),
  })),
  fc.tuple(fc.constantFrom('k', 'l', '__proto__', 'nested'), fc.jsonValue()).map(([key, value]) => (p) => ({
    ...p,
    values: Object.defineProperty({ ...p.values }, key, { value, enumerable: true, writable: true }),
  })),
  fc.constantFrom('k', 'l', 'goal').map((key) => (p) => {
    const { [key]: _, ...rest } = p.values;
    return { ...p, values: rest };
  }),
  fc.tuple(node, fc.nat(5)).map(([id, n]) => (p) => ({
    ...p,
    header: { ...p.header, node_retries: { ...p.header.node_retries, [id]: n } },
  })),
  fc.tuple(node, fc.constantFrom('fail', 'success', 'retry' as const)).map(([id, status]) => (p) => ({
    ...p,
    header: { ...p.header, node_outcomes: { ...p.header.node_outcomes, [id]: status } },
  })),
  fc.string().map((message) => (p) => ({
    ...p,
    header: { ...p.header, logs: [...p.header.logs, { node: 'a', message, time: '2026-11-26T00:00:00Z' }] },
  })),
  fc.option(fc.nat(9), { nil: undefined }).map((edge) => (p) => {
    const { arrived_by: _, failure: __, ...header } = p.header;
    return {
      ...p,
      header: {
        ...header,
        ...(edge !== undefined ? { arrived_by: edge, failure: { reason: `edge ${edge}` } } : {}),
      },
    };
  }),
  // loop_restart: completed nodes and outcomes start over; values and counts stay.
  fc.constant((p: CheckpointParts) => ({
    ...p,
    header: { ...p.header, completed_nodes: [], node_outcomes: {}, restarts: p.header.restarts + 1 },
  })),
  fc
    .constantFrom('running', 'paused' as const)
    .map((status) => (p) => ({ ...p, header: { ...p.header, status } })),
];

/** The journal the writer appends: a full first line, then a delta wherever one can say the change. */
function journalOf(steps: CheckpointParts[]): string {
  let text = '';
  let index = 0;
  steps.forEach((parts, i) => {
    const before = steps[i - 1];
    const delta = before ? checkpointDelta(before, parts, index + 1) : undefined;
    text += delta ? `${JSON.stringify(delta)}\n` : checkpointText(parts);
    index = delta ? index + 1 : 0;
  });
  return text;
}

describe('checkpoint deltas', () => {
  it('folding the journal of any run gives the newest checkpoint exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(...changes), { maxLength: 40 }), (run) => {
        const steps = [start];
        for (const change of run) steps.push(change(steps.at(-1) as CheckpointParts));
        const newest = steps.at(-1) as CheckpointParts;
        expect(foldJournal(journalOf(steps))).toEqual(JSON.parse(checkpointText(newest)));
      }),
      { numRuns: 300 },
    );
  });

  it('a step says only what it changed: appended names, changed keys, the new count', () => {
    const next: CheckpointParts = {
      header: { ...start.header, completed_nodes: ['start'], steps: 1, current_node: 'a' },
      values: { ...start.values, outcome: 'success' },
      visits: countVisit(start.visits, 'start'),
    };
    expect(checkpointDelta(start, next, 1)).toEqual({
      '~': 1,
      set: { current_node: 'a', steps: 1 },
      push: { completed_nodes: ['start'] },
      merge: { context: { outcome: 'success', 'internal.visit_count.start': 1 } },
    });
  });

  it.each([
    ['the counts were reordered', { visits: [['b', 1] as const] }, { visits: [['a', 1] as const] }],
    ['a count was removed', { visits: [['a', 1] as const] }, { visits: [] }],
    ['a value sits under the count prefix', { values: {} }, { values: { 'internal.visit_count.a': 'x' } }],
  ])('only a full line can say it when %s', (_, before, after) => {
    expect(checkpointDelta({ ...start, ...before }, { ...start, ...after }, 1)).toBeUndefined();
  });

  it('a delta that does not fit the checkpoint leaves it as it was', () => {
    const state = { completed_nodes: 'not a list', context: {} };
    expect(applyCheckpointDelta(state, { '~': 1, set: { steps: 2 }, push: { completed_nodes: ['a'] } })).toBe(
      false,
    );
    expect(state).toEqual({ completed_nodes: 'not a list', context: {} });
  });
});
