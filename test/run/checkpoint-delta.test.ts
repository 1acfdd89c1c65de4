import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countVisit } from '../../src/machines/visit-counts.js';
import { createCheckpointWriter } from '../../src/run/checkpoint.js';
import {
  applyCheckpointDelta,
  type CheckpointParts,
  checkpointDelta,
  checkpointText,
  writtenCheckpoint,
} from '../../src/run/checkpoint-delta.js';
import { JOURNAL_FILE, newestJournalCheckpoint } from '../../src/run/checkpoint-journal.js';
import { WriteLane } from '../../src/shared/write-lane.js';
import { tempDir } from '../helpers/run-helpers.js';

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
  // A handler that changes an object it read from the context in place (and may never set it back).
  fc.string().map((item) => (p) => {
    const list = p.values['list'];
    if (Array.isArray(list)) list.push(item);
    return { ...p, values: Array.isArray(list) ? p.values : { ...p.values, list: [item] } };
  }),
  // Values JSON leaves out: the full text has no key for them.
  fc
    .constantFrom(undefined, () => 1, Symbol('s'), { toJSON: () => undefined })
    .map((value) => (p) => ({
      ...p,
      values: { ...p.values, odd: value },
    })),
  // An embedder's accounting that returns the same totals object, changed in place.
  fc.nat(9).map((calls) => (p) => {
    const usage = (p.header.usage ?? {}) as Record<string, unknown>;
    usage['calls'] = calls;
    return { ...p, header: { ...p.header, usage } };
  }),
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

describe('checkpoint deltas', () => {
  it("the journal the writer appends folds, at every step of any run, to that step's checkpoint", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(...changes), { maxLength: 30 }), async (run) => {
        const dir = tempDir();
        const lane = new WriteLane({ durable: false });
        const writer = createCheckpointWriter({ runDir: dir, lane });
        let parts = start;
        for (const change of [(p: CheckpointParts) => p, ...run]) {
          parts = change(parts);
          // The checkpoint as it is now: later steps may change its objects in place.
          const expected = JSON.parse(checkpointText(parts));
          writer.write(parts);
          await lane.settled();
          // As readCheckpoint reads (a stopped run's is checkpoint.json alone), without its zod schema,
          // which would drop a context key named __proto__.
          const read =
            newestJournalCheckpoint(dir) ?? JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8'));
          expect(read).toEqual(expected);
        }
        writer.close();
        await lane.settled();
      }),
      { numRuns: 150 },
    );
  });

  it('after the first line, a step appends only what it changed', async () => {
    const dir = tempDir();
    const lane = new WriteLane({ durable: false });
    const writer = createCheckpointWriter({ runDir: dir, lane });
    let parts = start;
    for (let i = 0; i < 50; i++) {
      parts = {
        ...parts,
        header: {
          ...parts.header,
          completed_nodes: [...parts.header.completed_nodes, `n${i}`],
          steps: i + 1,
        },
        visits: countVisit(parts.visits, `n${i}`),
      };
      writer.write(parts);
    }
    await lane.settled();
    const lines = readFileSync(join(dir, JOURNAL_FILE), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(50);
    expect(lines.slice(1).every((line) => line.length < 200)).toBe(true);
    writer.close();
    await lane.settled();
  });

  it('a step says only what it changed: appended names, changed keys, the new count', () => {
    const next: CheckpointParts = {
      header: { ...start.header, completed_nodes: ['start'], steps: 1, current_node: 'a' },
      values: { ...start.values, outcome: 'success' },
      visits: countVisit(start.visits, 'start'),
    };
    expect(checkpointDelta(writtenCheckpoint(start), writtenCheckpoint(next), 'c', 1)).toEqual({
      '~': ['c', 1],
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
    const [a, b] = [
      { ...start, ...before },
      { ...start, ...after },
    ].map(writtenCheckpoint);
    expect(a && b && checkpointDelta(a, b, 'c', 1)).toBeUndefined();
  });

  it('a delta that does not fit the checkpoint leaves it as it was', () => {
    const state = { completed_nodes: 'not a list', context: {} };
    const delta = { '~': ['c', 1] as [string, number], set: { steps: 2 }, push: { completed_nodes: ['a'] } };
    expect(applyCheckpointDelta(state, delta)).toBe(false);
    expect(state).toEqual({ completed_nodes: 'not a list', context: {} });
  });
});
