import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HandlerHook } from '../../src/actors/handler-hook.js';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { readJson, runDot, tempDir } from '../helpers/run-helpers.js';

/** A hook recording `<phase>:<node>` for every invocation (with the tag of a branch or child run). */
function recordingHook(name: string, calls: string[]): HandlerHook {
  return {
    name,
    beforeExecute: async (node, context) => {
      await new Promise((r) => setImmediate(r));
      calls.push(`${name}.before:${node.id}`);
      context.set(`seen.${name}`, true);
    },
    afterExecute: (node, _context, outcome) => {
      calls.push(`${name}.after:${node.id}:${outcome.status}`);
    },
  };
}

describe('handler hooks in runs', () => {
  it('wrap every handler of the run in order (after-hooks reversed), their set() reaching the context', async () => {
    const calls: string[] = [];
    const registry = createDefaultRegistry()
      .addHook(recordingHook('outer', calls))
      .addHook(recordingHook('inner', calls));
    const run = await runDot(
      'digraph h { start [shape=Mdiamond]; work [prompt="w"]; exit [shape=Msquare]; start -> work -> exit }',
      { registry },
    );
    expect(run.result.status).toBe('completed');
    const forWork = calls.filter((c) => c.includes(':work'));
    expect(forWork).toEqual([
      'outer.before:work',
      'inner.before:work',
      'inner.after:work:success',
      'outer.after:work:success',
    ]);
    // Start and exit handlers are invocations too.
    expect(calls.filter((c) => c.startsWith('outer.before:'))).toEqual([
      'outer.before:start',
      'outer.before:work',
      'outer.before:exit',
    ]);
    expect(run.result.context['seen.inner']).toBe(true);
  });

  it('a throwing before-hook fails the node with its message, its handler never runs, and failure routing applies', async () => {
    let handled = 0;
    const registry = createDefaultRegistry()
      .register('guarded', async () => {
        handled += 1;
        return { status: 'success' };
      })
      .addHook({
        name: 'policy',
        beforeExecute: async (node) => {
          if (node.id === 'deploy') throw new Error('deploys are frozen');
        },
      });
    const run = await runDot(
      `digraph h { start [shape=Mdiamond]; deploy [type="guarded"]; report [type="guarded"]; exit [shape=Msquare]
        start -> deploy
        deploy -> exit [condition="outcome=success"]
        deploy -> report [condition="outcome=fail"]
        report -> exit }`,
      { registry },
    );
    expect(handled).toBe(1); // report only
    const complete = run.events.find((e) => e.kind === 'node.complete' && e.node_id === 'deploy');
    expect(complete?.data).toMatchObject({
      status: 'fail',
      failure_reason: 'hook "policy" beforeExecute failed: deploys are frozen',
    });
    expect(readJson(join(run.result.runDir, 'deploy', 'status.json'))).toMatchObject({
      outcome: 'fail',
      failure_reason: 'hook "policy" beforeExecute failed: deploys are frozen',
    });
    expect(run.visited).toEqual(['start', 'deploy', 'report', 'exit']);
  });

  it('a throwing after-hook fails the node and replaces the status.json its handler wrote', async () => {
    const registry = createDefaultRegistry()
      .register('writer', async ({ stageDir }) => {
        writeFileSync(
          join(stageDir, 'status.json'),
          JSON.stringify({ outcome: 'success', notes: 'by hand' }),
        );
        return { status: 'success', context_updates: { wrote: true } };
      })
      .addHook({
        name: 'audit',
        afterExecute: (node) => {
          if (node.id === 'w') throw new Error('audit log unreachable');
        },
      });
    const run = await runDot(
      'digraph h { start [shape=Mdiamond]; w [type="writer"]; exit [shape=Msquare]; start -> w -> exit }',
      { registry },
    );
    expect(run.result.status).toBe('failed');
    expect(run.result.failure?.reason).toBe('hook "audit" afterExecute failed: audit log unreachable');
    expect(run.result.context['wrote']).toBe(true);
    expect(readJson(join(run.result.runDir, 'w', 'status.json'))).toMatchObject({
      outcome: 'fail',
      failure_reason: 'hook "audit" afterExecute failed: audit log unreachable',
    });
  });

  it('after-hooks see a throwing handler as FAIL', async () => {
    const seen: string[] = [];
    const registry = createDefaultRegistry()
      .register('boom', async () => {
        throw new Error('kaput');
      })
      .addHook({
        afterExecute: (node, _c, outcome) => void seen.push(`${node.id}:${outcome.failure_reason}`),
      });
    const run = await runDot(
      'digraph h { start [shape=Mdiamond]; b [type="boom"]; exit [shape=Msquare]; start -> b -> exit }',
      { registry },
    );
    expect(run.result.status).toBe('failed');
    expect(seen).toContain('b:kaput');
  });

  it('fire for the nodes inside parallel branches', async () => {
    const calls: string[] = [];
    const registry = createDefaultRegistry().addHook(recordingHook('h', calls));
    const dot = `digraph par {
      start [shape=Mdiamond]
      fan [shape=component]
      a [prompt="a"]
      b [prompt="b"]
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> fan
      fan -> a -> join
      fan -> b -> join
      join -> exit
    }`;
    const run = await runDot(dot, { registry });
    expect(run.result.status).toBe('completed');
    for (const id of ['a', 'b']) {
      const mine = calls.filter((c) => c.endsWith(`:${id}`) || c.includes(`:${id}:`));
      expect(mine).toEqual([`h.before:${id}`, `h.after:${id}:success`]);
    }
    // The branch nodes run while the parallel node's own invocation is open.
    const open = calls.indexOf('h.before:fan');
    const close = calls.indexOf('h.after:fan:success');
    expect(calls.indexOf('h.before:a')).toBeGreaterThan(open);
    expect(calls.indexOf('h.after:b:success')).toBeLessThan(close);
  });

  it('fire for the nodes of a manager loop child pipeline', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'child.dot'),
      'digraph child { start [shape=Mdiamond]; inner [prompt="child work"]; exit [shape=Msquare]; start -> inner -> exit }',
    );
    const parent = `digraph parent {
      start [shape=Mdiamond]
      boss [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="20ms", manager.max_cycles=200]
      exit [shape=Msquare]
      start -> boss -> exit
    }`;
    const file = join(dir, 'parent.dot');
    writeFileSync(file, parent);
    const calls: string[] = [];
    const registry = createDefaultRegistry().addHook(recordingHook('h', calls));
    const run = await runDot(parent, { file, registry });
    expect(run.result.status).toBe('completed');
    const open = calls.indexOf('h.before:boss');
    const inner = calls.indexOf('h.before:inner');
    expect(inner).toBeGreaterThan(open);
    expect(calls).toContain('h.after:inner:success');
    expect(calls.indexOf('h.after:inner:success')).toBeLessThan(calls.indexOf('h.after:boss:success'));
  });
});
