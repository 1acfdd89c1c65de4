import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import {
  countVisit,
  setVisits,
  splitVisitCounts,
  valuesWithVisits,
  valuesWithVisitsJson,
  visitValuesView,
} from '../../src/machines/visit-counts.js';
import { readJson, runDot } from '../helpers/run-helpers.js';

const values = { 'graph.goal': 'ship', outcome: 'success', 'internal.visit_count.stale': 'x' };
const visits = [
  ['plan', 2],
  ['build', 1],
] as const;

describe('visit counts beside the values', () => {
  it('split takes numeric internal.visit_count.* keys out and merge puts them back', () => {
    const merged = valuesWithVisits(values, visits);
    expect(merged).toEqual({
      ...values,
      'internal.visit_count.plan': 2,
      'internal.visit_count.build': 1,
    });
    const split = splitVisitCounts(merged);
    // A non-numeric value under the prefix is data, not a count.
    expect(split.values).toEqual(values);
    expect(split.visits).toEqual(visits);
  });

  it('serialises to the JSON of the merged object, whatever the mix of keys', () => {
    const cases: [Record<string, unknown>, readonly (readonly [string, number])[]][] = [
      [{}, []],
      [{}, visits],
      [{ a: 1 }, []],
      [{ a: { nested: [1, 'two'] }, 'graph.goal': 'ship' }, visits],
      // A non-numeric value under a counted key: the count wins, and no key appears twice.
      [{ 'internal.visit_count.plan': 'text', b: 2 }, visits],
    ];
    for (const [v, counts] of cases) {
      const text = valuesWithVisitsJson(v, counts);
      expect(JSON.parse(text)).toEqual(valuesWithVisits(v, counts));
      expect(text.match(/"internal\.visit_count\.plan"/g)?.length ?? 0).toBe(
        counts.length > 0 || 'internal.visit_count.plan' in v ? 1 : 0,
      );
    }
    // Twice in a row (the cached member texts) gives the same text.
    expect(valuesWithVisitsJson({ a: 1 }, visits)).toBe(valuesWithVisitsJson({ a: 1 }, visits));
  });

  it('counting and setting copy the list and leave the input alone', () => {
    const counted = countVisit(visits, 'plan');
    expect(counted).toEqual([
      ['plan', 3],
      ['build', 1],
    ]);
    expect(countVisit(counted, 'ship')).toEqual([...counted, ['ship', 1]]);
    expect(setVisits(visits, [['build', 0]])).toEqual([
      ['plan', 2],
      ['build', 0],
    ]);
    expect(visits).toEqual([
      ['plan', 2],
      ['build', 1],
    ]);
  });

  it('the view reads, lists and serialises exactly like the merged object, and refuses writes', () => {
    const view = visitValuesView(values, visits);
    const merged = valuesWithVisits(values, visits);
    expect(view['internal.visit_count.plan']).toBe(2);
    expect(view['internal.visit_count.absent']).toBeUndefined();
    expect('internal.visit_count.build' in view).toBe(true);
    expect(Object.hasOwn(view, 'internal.visit_count.build')).toBe(true);
    expect(Object.keys(view).sort()).toEqual(Object.keys(merged).sort());
    expect({ ...view }).toEqual(merged);
    expect(JSON.parse(JSON.stringify(view))).toEqual(merged);
    expect(() => {
      (view as Record<string, unknown>)['x'] = 1;
    }).toThrow(TypeError);
    expect(visitValuesView(values, [])).toBe(values);
  });
});

describe('visit counts in a run', () => {
  it('count each visit, reach conditions and checkpoints, and stay out of the machine values', async () => {
    const dot = `digraph loop {
      start [shape=Mdiamond]
      work [type="tick"]
      exit [shape=Msquare]
      start -> work
      work -> work [condition="context.internal.visit_count.work < 3"]
      work -> exit
    }`;
    const seen: unknown[] = [];
    const registry = createDefaultRegistry().register('tick', async ({ context }) => {
      seen.push(context.get('internal.visit_count.work'));
      return { status: 'success' };
    });
    const machineValues: Record<string, unknown>[] = [];
    const run = await runDot(dot, {
      registry,
      inspect: (e) => {
        const context = (e as { snapshot?: { context?: { values?: Record<string, unknown> } } }).snapshot
          ?.context;
        if (e.type === '@xstate.snapshot' && context?.values) machineValues.push(context.values);
      },
    });
    expect(run.result.status).toBe('completed');
    expect(machineValues.length).toBeGreaterThan(3);
    for (const v of machineValues) expect(Object.keys(v).some((k) => k.includes('visit_count'))).toBe(false);
    // The handler sees its own visit counted; the condition stops the loop at the third visit.
    expect(seen).toEqual([1, 2, 3]);
    expect(run.result.context['internal.visit_count.work']).toBe(3);
    const checkpoint = readJson(join(run.runDir, 'checkpoint.json'));
    expect((checkpoint['context'] as Record<string, unknown>)['internal.visit_count.work']).toBe(3);
  });

  it('a handler that sets internal.visit_count.<node> resets that count', async () => {
    const dot = `digraph reset {
      start [shape=Mdiamond]
      work [type="tick", max_visits=2]
      reset [type="reset"]
      exit [shape=Msquare]
      start -> work
      work -> reset [condition="context.round < 3"]
      work -> exit
      reset -> work
    }`;
    let round = 0;
    const registry = createDefaultRegistry()
      .register('tick', async ({ context }) => {
        round++;
        context.set('round', round);
        return { status: 'success' };
      })
      .register('reset', async ({ context }) => {
        // Without the reset, the third visit of work would exceed max_visits=2 and fail.
        context.set('internal.visit_count.work', 0);
        return { status: 'success' };
      });
    const run = await runDot(dot, { registry });
    expect(run.result.status).toBe('completed');
    expect(round).toBe(3);
    expect(run.result.context['internal.visit_count.work']).toBe(1);
  });
});
