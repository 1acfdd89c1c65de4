import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { compileMachine, leasePipeline } from '../../src/machines/compile-machine.js';
import { runDot } from '../helpers/run-helpers.js';

// A node whose handler says which registry ran it, and a retry whose wait asks the run's `random`.
const PROBE = `digraph lease_probe {
  start [shape=Mdiamond]
  work [type="probe", max_retries=1, retry_policy="linear"]
  exit [shape=Msquare]
  start -> work -> exit
}`;

function probeRegistry(tag: string, seen: string[]) {
  let attempts = 0;
  return createDefaultRegistry().register('probe', async () => {
    seen.push(tag);
    attempts++;
    // The first attempt asks for a retry, so the backoff actor runs and draws its jitter.
    return attempts === 1 ? { status: 'retry' } : { status: 'success', notes: tag };
  });
}

describe('leasePipeline', () => {
  it('hands a finished run’s machine to the next run, bound to the new services', async () => {
    const compiled = compileMachine(PROBE);
    const first = leasePipeline(compiled, {});
    const second = leasePipeline(compiled, {});
    // Two runs at once never share a machine.
    expect(second.machine).not.toBe(first.machine);
    first.release();
    first.release(); // releasing twice does not put it in the pool twice
    const third = leasePipeline(compiled, {});
    expect(third.machine).toBe(first.machine);
    const fourth = leasePipeline(compiled, {});
    expect(fourth.machine).not.toBe(first.machine);
    for (const lease of [second, third, fourth]) lease.release();
  });

  it('runs reusing a machine see only their own registry, events and random source', async () => {
    const seenA: string[] = [];
    const seenB: string[] = [];
    const randomCalls = { a: 0, b: 0 };
    const a = await runDot(PROBE, {
      registry: probeRegistry('a', seenA),
      random: () => {
        randomCalls.a++;
        return 0;
      },
    });
    const b = await runDot(PROBE, {
      registry: probeRegistry('b', seenB),
      random: () => {
        randomCalls.b++;
        return 0;
      },
    });
    expect(a.result.status).toBe('completed');
    expect(b.result.status).toBe('completed');
    expect(seenA).toEqual(['a', 'a']);
    expect(seenB).toEqual(['b', 'b']);
    expect(randomCalls.b).toBeGreaterThan(0);
    expect(randomCalls.a).toBe(randomCalls.b);
    // Each run's events went to its own sink and directory.
    expect(a.events.every((e) => e.kind !== 'pipeline.start' || e.data['run_dir'] === a.runDir)).toBe(true);
    expect(b.events.filter((e) => e.kind === 'node.complete' && e.node_id === 'work')).toHaveLength(1);
    expect(a.runDir).not.toBe(b.runDir);
  });

  it('keeps concurrent runs of one pipeline apart', async () => {
    const seen: Record<string, string[]> = { x: [], y: [], z: [] };
    const runs = await Promise.all(
      Object.keys(seen).map((tag) => runDot(PROBE, { registry: probeRegistry(tag, seen[tag] ?? []) })),
    );
    for (const [i, tag] of Object.keys(seen).entries()) {
      expect(seen[tag]).toEqual([tag, tag]);
      expect(runs[i]?.result.status).toBe('completed');
    }
  });
});
