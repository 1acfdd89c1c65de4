import { describe, expect, expectTypeOf, it } from 'vitest';
import { isEvent, onEventOf, type PipelineEvent } from '../../src/shared/pipeline-event.js';

const at = '2026-01-01T00:00:00.000Z';
const events: PipelineEvent[] = [
  { kind: 'node.start', node_id: 'a', data: { attempt: 1, handler: 'codergen', step: 1 }, timestamp: at },
  { kind: 'edge.selected', node_id: 'a', data: { from: 'a', to: 'b', step: 'weight' }, timestamp: at },
  { kind: 'node.complete', node_id: 'a', data: { status: 'fail', failure_reason: 'boom' }, timestamp: at },
];

describe('isEvent and onEventOf', () => {
  it('isEvent narrows to the kinds asked for', () => {
    const completed = events.filter((e) => isEvent(e, 'node.complete'));
    expectTypeOf(completed[0]!.data.status).toEqualTypeOf<
      'success' | 'partial_success' | 'retry' | 'fail' | 'skipped'
    >();
    expect(completed.map((e) => e.data.failure_reason)).toEqual(['boom']);
    expect(events.filter((e) => isEvent(e, 'node.start', 'node.complete'))).toHaveLength(2);
  });

  it('onEventOf calls its handler with events of its kind only', () => {
    const routes: string[] = [];
    const listener = onEventOf('edge.selected', (e) => routes.push(`${e.data.from} → ${e.data.to}`));
    for (const event of events) listener(event);
    expect(routes).toEqual(['a → b']);
  });
});

describe('PipelineEvent data', () => {
  it("is exactly its kind's fields: a misspelt field does not compile", () => {
    const event = events[2];
    if (event?.kind !== 'node.complete') throw new Error('the third event is a node.complete');
    expect(event.data.status).toBe('fail');
    // @ts-expect-error -- `stauts` is no field of node.complete; `data` has no index signature.
    expect(event.data.stauts).toBeUndefined();
    expectTypeOf(event.data).not.toHaveProperty('stauts');
    expectTypeOf(event.data).toHaveProperty('status');
  });

  it('has no field of another kind before it is narrowed', () => {
    const event = events[0];
    // @ts-expect-error -- `status` belongs to some kinds only: narrow by `kind` to read it.
    expect(event?.data.status).toBeUndefined();
    expectTypeOf<PipelineEvent['data']>().not.toHaveProperty('status');
  });
});
