import { describe, expect, it } from 'vitest';
import { RunEventFolds } from '../../../src/server/postgres/run-event-folds.js';
import type { PipelineEvent } from '../../../src/shared/pipeline-event.js';

const started = (n: number): PipelineEvent => ({
  kind: 'node.start',
  node_id: `n${n}`,
  data: { attempt: 1, handler: 'codergen', step: n },
  timestamp: 't',
});

/** A run's stored events and reads of them that the test lets finish when it chooses. */
function storedEvents() {
  const rows: { seq: number; event: PipelineEvent }[] = [];
  const held: Array<() => void> = [];
  let holding = false;
  return {
    commit(count: number) {
      for (let i = 0; i < count; i++) rows.push({ seq: rows.length + 1, event: started(rows.length + 1) });
    },
    count: () => rows.length,
    hold: (on: boolean) => {
      holding = on;
    },
    release: () => {
      for (const resume of held.splice(0)) resume();
    },
    // What the table holds when the query runs, answered when the test releases it.
    read: async (_id: string, after: number, limit: number) => {
      const answer = rows.filter((r) => r.seq > after).slice(0, limit);
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      return answer;
    },
  };
}

describe('RunEventFolds', () => {
  it('folds every committed event once, and reads nothing when the count says there is nothing new', async () => {
    const store = storedEvents();
    let reads = 0;
    const folds = new RunEventFolds(
      (id, after, limit) => {
        reads++;
        return store.read(id, after, limit);
      },
      () => store.count(),
    );
    store.commit(3);
    expect((await folds.catchUp('r')).seq).toBe(3);
    expect(reads).toBe(1);
    await folds.catchUp('r');
    expect(reads).toBe(1);
    expect([...folds.fold('r').statuses.keys()]).toEqual(['n1', 'n2', 'n3']);
  });

  it('a catch-up that joins a read begun before the newest events were committed reads on to them', async () => {
    const store = storedEvents();
    const folds = new RunEventFolds(store.read, () => store.count());
    store.commit(2);
    store.hold(true);
    const early = folds.catchUp('r');
    // The read under way queried the table with two events; three more are committed meanwhile.
    await Promise.resolve();
    store.commit(3);
    store.hold(false);
    const late = folds.catchUp('r');
    store.release();
    await early;
    expect((await late).seq).toBe(5);
    expect(folds.fold('r').statuses.get('n5')).toBeDefined();
  });
});
