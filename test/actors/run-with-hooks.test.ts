import { describe, expect, it } from 'vitest';
import type { HandlerHook } from '../../src/actors/handler-hook.js';
import { PipelineContext } from '../../src/actors/pipeline-context.js';
import { runWithHooks } from '../../src/actors/run-with-hooks.js';
import type { Outcome } from '../../src/compiler/outcome.js';
import { makeNode } from './helpers/graph-builders.js';

const node = makeNode('work');

/** Hooks that record what ran, in order; `fail` makes one throw (or reject) in a phase. */
function recorder(names: string[], fail: Partial<Record<string, 'before' | 'after'>> = {}, async = false) {
  const calls: string[] = [];
  const hooks: HandlerHook[] = names.map((name) => ({
    name,
    beforeExecute: async () => {
      if (async) await new Promise((r) => setTimeout(r, 1));
      calls.push(`before:${name}`);
      if (fail[name] === 'before') throw new Error(`${name} says no`);
    },
    afterExecute: (_node, _ctx, outcome) => {
      calls.push(`after:${name}:${outcome.status}`);
      if (fail[name] === 'after') throw new Error(`${name} objects`);
    },
  }));
  return { calls, hooks };
}

describe('runWithHooks', () => {
  it('runs before-hooks in registration order and after-hooks in reverse, around the handler', async () => {
    const { calls, hooks } = recorder(['a', 'b', 'c'], {}, true);
    const outcome = await runWithHooks(hooks, node, new PipelineContext(), async () => {
      calls.push('handler');
      return { status: 'success' };
    });
    expect(outcome).toEqual({ status: 'success' });
    expect(calls).toEqual([
      'before:a',
      'before:b',
      'before:c',
      'handler',
      'after:c:success',
      'after:b:success',
      'after:a:success',
    ]);
  });

  it('a throwing (rejecting) before-hook fails the node with its message and the handler never runs', async () => {
    const { calls, hooks } = recorder(['a', 'b', 'c'], { b: 'before' });
    let ran = false;
    const outcome = await runWithHooks(hooks, node, new PipelineContext(), async () => {
      ran = true;
      return { status: 'success' };
    });
    expect(ran).toBe(false);
    expect(outcome).toEqual({ status: 'fail', failure_reason: 'hook "b" beforeExecute failed: b says no' });
    // Only the hooks that were entered are left, in reverse, and they see the FAIL.
    expect(calls).toEqual(['before:a', 'before:b', 'after:a:fail']);
  });

  it('a throwing after-hook turns the outcome into FAIL, keeps the context updates, and the rest still run', async () => {
    const { calls, hooks } = recorder(['a', 'b'], { b: 'after' });
    const done: Outcome = { status: 'success', preferred_label: 'go', context_updates: { k: 1 } };
    const outcome = await runWithHooks(hooks, node, new PipelineContext(), async () => done);
    expect(outcome).toEqual({
      status: 'fail',
      failure_reason: 'hook "b" afterExecute failed: b objects',
      context_updates: { k: 1 },
    });
    expect(calls).toEqual(['before:a', 'before:b', 'after:b:success', 'after:a:fail']);
  });

  it('names an unnamed hook by its phase, and accepts non-Error throws', async () => {
    const outcome = await runWithHooks(
      [
        {
          beforeExecute: () => {
            throw 'plain string';
          },
        },
      ],
      node,
      new PipelineContext(),
      async () => ({ status: 'success' }),
    );
    expect(outcome.failure_reason).toBe('beforeExecute hook failed: plain string');
  });

  it('hooks read and write the same context as the handler', async () => {
    const context = new PipelineContext({ seed: 1 }, 'work');
    const hooks: HandlerHook[] = [
      {
        beforeExecute: (_n, ctx) => ctx.set('seen.seed', ctx.get('seed')),
        afterExecute: (_n, ctx, outcome) => ctx.appendLog(`done ${outcome.status}`),
      },
    ];
    await runWithHooks(hooks, node, context, async () => {
      context.set('handler', context.get('seen.seed'));
      return { status: 'success' };
    });
    expect(context.pendingUpdates()).toEqual({ 'seen.seed': 1, handler: 1 });
    expect(context.getLogs().map((l) => l.message)).toEqual(['done success']);
  });

  it('with no hooks the handler outcome is returned as is', async () => {
    const done: Outcome = { status: 'partial_success' };
    expect(await runWithHooks([], node, new PipelineContext(), async () => done)).toBe(done);
  });
});
