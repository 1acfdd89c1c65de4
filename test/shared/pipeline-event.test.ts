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
