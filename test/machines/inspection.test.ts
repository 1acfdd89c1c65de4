import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import type { PipelineMachineContext } from '../../src/machines/machine-context.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const isPipelineContext = (c: unknown): c is PipelineMachineContext =>
  typeof c === 'object' && c !== null && 'completedNodes' in c && 'values' in c;

const CHILD = `digraph child {
  start [shape=Mdiamond]
  step [shape=parallelogram, tool_command="echo child"]
  exit [shape=Msquare]
  start -> step -> exit
}`;

// A loop (count < 2 goes back), a retry (flaky retries once), a parallel fan-out and a manager child.
const PARENT = `digraph inspected {
  start [shape=Mdiamond]
  count [type="counter"]
  flaky [type="flaky", max_retries=2, retry_policy="none"]
  fan [shape=component]
  a [shape=parallelogram, tool_command="echo a"]
  b [shape=parallelogram, tool_command="echo b"]
  join [shape=tripleoctagon]
  boss [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="10ms"]
  exit [shape=Msquare]
  start -> count
  count -> count [condition="context.count<2"]
  count -> flaky [condition="context.count>=2"]
  flaky -> fan
  fan -> a -> join
  fan -> b -> join
  join -> boss -> exit
}`;

describe('inspecting a run', () => {
  it('keeps every snapshot as it was when emitted; branches and the child are actors of the same system', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'child.dot'), CHILD);
    let flakyCalls = 0;
    const registry = createDefaultRegistry()
      // Written through `context.set`: collected, never written into the machine's context.
      .register('counter', async ({ context }) => {
        context.set('count', Number(context.get('count', 0)) + 1);
        return { status: 'success' };
      })
      .register('flaky', async () => {
        flakyCalls += 1;
        return flakyCalls === 1 ? { status: 'retry', failure_reason: 'once' } : { status: 'success' };
      });
    const kept: Array<{ context: PipelineMachineContext; copy: PipelineMachineContext }> = [];
    const actors: AnyActorRef[] = [];
    const inspect = (event: InspectionEvent) => {
      if (event.type === '@xstate.actor') actors.push(event.actorRef as AnyActorRef);
      if (event.type !== '@xstate.snapshot') return;
      const context: unknown = (event.snapshot as { context?: unknown }).context;
      if (isPipelineContext(context)) kept.push({ context, copy: deepFreeze(structuredClone(context)) });
    };
    const run = await runDot(PARENT, { file: join(dir, 'parent.dot'), registry, inspect });
    expect(run.result.status).toBe('completed');
    expect(flakyCalls).toBe(2);
    expect(run.visited).toEqual(['start', 'count', 'count', 'flaky', 'flaky', 'fan', 'join', 'boss', 'exit']);

    // Context is replaced, never mutated: what a subscriber kept still reads as it did.
    expect(kept.length).toBeGreaterThan(10);
    for (const { context, copy } of kept) expect(context).toEqual(copy);
    const completedCounts = new Set(kept.map((k) => k.context.completedNodes.length));
    expect(completedCounts.size).toBeGreaterThan(3);

    // Branches and the child pipeline are children of a handler actor of the run, in its actor system.
    const root = actors[0];
    expect(root).toBeDefined();
    const pipelines = actors.filter((a) => isPipelineContext(a.getSnapshot().context));
    const nested = pipelines.filter((a) => a !== root);
    const inputs = nested.map((a) => (a.getSnapshot().context as PipelineMachineContext).tags);
    expect(inputs).toEqual(expect.arrayContaining([{ branch: 'a' }, { branch: 'b' }, { parent: 'boss' }]));
    for (const actor of nested) {
      expect(actor.system).toBe(root?.system);
      const handler = actor._parent;
      expect(handler?.src).toMatch(/^handler\.(parallel|stack\.manager_loop)$/);
      expect(handler?._parent).toBe(root);
    }
  });
});
