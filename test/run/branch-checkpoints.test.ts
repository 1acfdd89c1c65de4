import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { tempDir } from '../helpers/run-helpers.js';

const PIPELINE = `digraph fan {
  start [shape=Mdiamond]
  fan [shape=component]
  quick [type="quick"]
  slow [type="slow"]
  join [shape=tripleoctagon]
  exit [shape=Msquare]
  start -> fan
  fan -> quick -> join
  fan -> slow -> join
  join -> exit
}`;

describe('parallel branches survive an interrupted parallel node', () => {
  it('a resumed parallel node keeps finished branches (not re-run) and re-runs only unfinished ones', async () => {
    const runs = { quick: 0, slow: 0 };
    let stop = (): void => {};
    let slowMayFinish = false;
    const registry = createDefaultRegistry()
      .register('quick', async () => {
        runs.quick++;
        return { status: 'success', context_updates: { answer: 42 } };
      })
      .register('slow', async ({ signal }) => {
        runs.slow++;
        if (slowMayFinish) return { status: 'success', context_updates: { slow: 'done' } };
        stop(); // the engine dies while this branch runs: quick has finished, slow has not
        await new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        );
        return { status: 'fail' };
      });
    const runDir = path.join(tempDir(), 'run');
    const first = startPipeline({ source: PIPELINE, runDir, registry, durable: false });
    stop = () => setTimeout(() => first.cancel(), 20);
    expect((await first.result).status).toBe('cancelled');
    expect(runs).toEqual({ quick: 1, slow: 1 });
    expect(existsSync(path.join(runDir, 'fan', 'branch-results.jsonl'))).toBe(true);

    slowMayFinish = true;
    const events: PipelineEvent[] = [];
    const resumed = resumePipeline({
      from: runDir,
      registry,
      durable: false,
      onEvent: (e) => events.push(e),
    });
    const result = await resumed.result;
    expect(result.status).toBe('completed');
    expect(runs).toEqual({ quick: 1, slow: 2 });
    // The join sees both branches, the restored one exactly as it finished.
    expect(result.context['quick.answer']).toBe(42);
    expect(result.context['slow.slow']).toBe('done');
    const completes = events.filter((e) => e.kind === 'parallel.branch.complete').map((e) => e.data);
    expect(completes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ branch: 'quick', status: 'success', restored: true }),
        expect.objectContaining({ branch: 'slow', status: 'success' }),
      ]),
    );
    // A completed visit leaves nothing behind, so a later visit (a loop) runs every branch again.
    expect(existsSync(path.join(runDir, 'fan', 'branch-results.jsonl'))).toBe(false);
  });
});

describe('the branch results file', () => {
  it('exists, empty, while the branches run: the first to finish does not open it', async () => {
    const seen: string[] = [];
    let runDir = '';
    const read = () => {
      try {
        return readFileSync(path.join(runDir, 'fan', 'branch-results.jsonl'), 'utf8');
      } catch {
        return 'missing';
      }
    };
    const registry = createDefaultRegistry()
      .register('quick', async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { status: 'success' };
      })
      .register('slow', async () => {
        // Both branches have started, neither has finished.
        await new Promise((resolve) => setImmediate(resolve));
        seen.push(read());
        await new Promise((resolve) => setTimeout(resolve, 60));
        seen.push(read());
        return { status: 'success' };
      });
    runDir = path.join(tempDir(), 'run');
    const run = startPipeline({ source: PIPELINE, runDir, registry, durable: false });
    expect((await run.result).status).toBe('completed');
    expect(seen[0]).toBe('');
    expect(seen[1]).toMatch(/"branch_id":"quick"/);
  });
});

describe('a finished branch is saved before anything else sees it', () => {
  it.each([true, false])(
    'durable=%s: its line is in branch-results.jsonl when its completion is announced',
    async (durable) => {
      const registry = createDefaultRegistry()
        .register('quick', async () => ({ status: 'success' }))
        .register('slow', async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { status: 'success' };
        });
      const runDir = path.join(tempDir(), 'run');
      const saved: Record<string, string[]> = {};
      const run = startPipeline({
        source: PIPELINE,
        runDir,
        registry,
        durable,
        onEvent: (e) => {
          if (e.kind !== 'parallel.branch.complete') return;
          const text = readFileSync(path.join(runDir, 'fan', 'branch-results.jsonl'), 'utf8');
          saved[String(e.data['branch'])] = text
            .split('\n')
            .filter(Boolean)
            .map((line) => (JSON.parse(line) as { record: { branch_id: string } }).record.branch_id);
        },
      });
      expect((await run.result).status).toBe('completed');
      expect(saved['quick']).toContain('quick');
      expect(saved['slow']).toEqual(expect.arrayContaining(['quick', 'slow']));
    },
  );
});
