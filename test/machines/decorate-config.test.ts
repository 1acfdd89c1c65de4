import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise, transition, waitFor } from 'xstate';
import type { MachineConfig } from '../../src/compiler/lower/machine-config.js';
import { compile, createDefaultRegistry, createPipelineMachine, pipelineInput } from '../../src/index.js';
import type { HandlerActorOutput, HandlerInvocationInput } from '../../src/machines/invocation-runtime.js';
import { tempDir } from '../helpers/run-helpers.js';

const SOURCE = `digraph d { start [shape=Mdiamond]; work [type="step"]; exit [shape=Msquare]; start -> work -> exit }`;

/** The compiled config with one reference renamed: what a hand-edited or foreign JSON config looks like. */
function edited(edit: (config: MachineConfig) => void) {
  const { config, graph } = compile(SOURCE, { customHandlerTypes: ['step'] });
  const copy: MachineConfig = JSON.parse(JSON.stringify(config));
  edit(copy);
  return { config: copy, graph };
}

describe('the setup() seam (decorateConfig)', () => {
  it.each([
    [
      'a guard',
      (c: MachineConfig) => {
        const t = c.states['work']?.states?.['route']?.always?.[1];
        if (t?.guard) t.guard.type = 'routesSomewhere';
      },
      /pipeline\.work\.route names guard "routesSomewhere"/,
    ],
    [
      'an action',
      (c: MachineConfig) => {
        const done = c.states['work']?.states?.['run']?.invoke?.onDone[0];
        if (done?.actions?.[0]) done.actions[0].type = 'recordEverything';
      },
      /pipeline\.work\.run names action "recordEverything"/,
    ],
    [
      'an actor',
      (c: MachineConfig) => {
        const invoke = c.states['work']?.states?.['run']?.invoke;
        if (invoke) invoke.src = 'handler.teleport';
      },
      /pipeline\.work\.run names actor "handler\.teleport"/,
    ],
  ])('refuses a config naming %s the machine does not implement', (_what, edit, message) => {
    const { config, graph } = edited(edit);
    expect(() => createPipelineMachine(config, graph)).toThrow(message);
  });

  it('refuses an invocation that names no node', () => {
    const { config, graph } = edited((c) => {
      const invoke = c.states['work']?.states?.['run']?.invoke;
      if (invoke) invoke.input = {};
    });
    expect(() => createPipelineMachine(config, graph)).toThrow(/invokes an actor without naming its node/);
  });

  it("hands the handler's output to the onDone actions, so the outcome reaches the context", async () => {
    const { config, graph } = compile(SOURCE, { customHandlerTypes: ['step'] });
    const registry = createDefaultRegistry().register('step', async () => ({
      status: 'success',
      context_updates: { answer: 42 },
    }));
    const machine = createPipelineMachine(config, graph, { registry });
    const actor = createActor(machine, { input: pipelineInput({ graph }, { runDir: tempDir() }) }).start();
    await toPromise(actor);
    expect(actor.getSnapshot().context.values['answer']).toBe(42);
    expect(actor.getSnapshot().context.lastOutcome?.status).toBe('success');
    // The compiler's config is shared (cached): decorating it must not change it.
    expect(JSON.parse(JSON.stringify(config))).toEqual(config);
    expect(config.states['work']?.states?.['run']?.invoke?.input).toEqual({ node: 'work' });
  });

  it('turns an error a handler throws into a FAIL outcome', async () => {
    const { config, graph } = compile(SOURCE, { customHandlerTypes: ['step'] });
    const registry = createDefaultRegistry().register('step', async () => {
      throw new Error('disk on fire');
    });
    const actor = createActor(createPipelineMachine(config, graph, { registry }), {
      input: pipelineInput({ graph }, { runDir: tempDir() }),
    }).start();
    await toPromise(actor);
    expect(actor.getSnapshot().value).toBe('__failed');
    expect(actor.getSnapshot().context.failure?.reason).toMatch(/disk on fire/);
  });

  describe('a handler actor that rejects (the onError transitions)', () => {
    const ROUTED = `digraph d {
      start [shape=Mdiamond]; work [type="step", max_retries=1]; fix [type="step"]; exit [shape=Msquare]
      start -> work
      work -> exit [condition="outcome=success"]
      work -> fix [condition="outcome=fail"]
      fix -> exit
    }`;
    /** The pipeline machine with `handler.step` replaced by an actor rejecting with `error` on `work`. */
    function rejecting(error: unknown) {
      const { config, graph } = compile(ROUTED, { customHandlerTypes: ['step'] });
      const attempts: string[] = [];
      const machine = createPipelineMachine(config, graph).provide({
        actors: {
          'handler.step': fromPromise<HandlerActorOutput, HandlerInvocationInput>(async ({ input }) => {
            attempts.push(input.node);
            if (input.node === 'work') throw error;
            return { outcome: { status: 'success' } };
          }),
        },
      });
      const actor = createActor(machine, { input: pipelineInput({ graph }, { runDir: tempDir() }) });
      return { actor, attempts };
    }

    it('routes the error as a FAIL outcome: its fail edge is taken', async () => {
      const { actor, attempts } = rejecting(new Error('socket closed'));
      actor.start();
      await toPromise(actor);
      const { context, value } = actor.getSnapshot();
      expect(value).toBe('__completed');
      expect(attempts).toEqual(['work', 'fix']);
      expect(context.values['_last_error']).toBe('socket closed');
      expect(context.failedNodes).toEqual(['work']);
    });

    it('retries a retryable error within max_retries, then routes its FAIL', async () => {
      const { actor, attempts } = rejecting(Object.assign(new Error('rate limited'), { retryable: true }));
      actor.start();
      await toPromise(actor);
      expect(actor.getSnapshot().value).toBe('__completed');
      expect(attempts).toEqual(['work', 'work', 'fix']);
      expect(actor.getSnapshot().context.values['_last_error']).toBe('rate limited');
    });
  });

  it.each([
    ['its own shape', { result: 'done' }],
    ['nothing', undefined],
    ['a status that is not a stage status', { outcome: { status: 'SUCCESS' } }],
    ['logs that are not a list', { outcome: { status: 'success' }, logs: 5 }],
    ['context updates that are not a record', { outcome: { status: 'success', context_updates: 'x' } }],
  ])('fails the node, saying why, when a handler actor resolves with %s', async (_what, output) => {
    const { config, graph } = compile(SOURCE, { customHandlerTypes: ['step'] });
    const machine = createPipelineMachine(config, graph).provide({
      actors: {
        // What an embedder's own actor might resolve with: not a handler's output.
        'handler.step': fromPromise<HandlerActorOutput, HandlerInvocationInput>(
          async () => output as unknown as HandlerActorOutput,
        ),
      },
    });
    const actor = createActor(machine, { input: pipelineInput({ graph }, { runDir: tempDir() }) }).start();
    await toPromise(actor);
    const { value, context } = actor.getSnapshot();
    expect(value).toBe('__failed');
    expect(context.failedNodes).toEqual(['work']);
    expect(context.values['_last_error']).toMatch(
      /actor invoked at pipeline\.work\.run finished without an outcome/,
    );
  });

  it('settles one event object from each snapshot it is applied to (transition() with a kept event)', async () => {
    const source = `digraph d { start [shape=Mdiamond]; w [type="step", max_retries=2]; ok [type="step"]; bad [type="step"]
      exit [shape=Msquare]; start -> w; w -> ok [condition="outcome=success"]; w -> bad [condition="outcome=fail"]
      ok -> exit; bad -> exit }`;
    const { config, graph } = compile(source, { customHandlerTypes: ['step'] });
    const machine = createPipelineMachine(config, graph).provide({
      actors: {
        'handler.step': fromPromise<HandlerActorOutput, HandlerInvocationInput>(() => new Promise(() => {})),
      },
    });
    const actor = createActor(machine, { input: pipelineInput({ graph }, { runDir: tempDir() }) }).start();
    const fresh = await waitFor(actor, (s) => JSON.stringify(s.value) === '{"w":"run"}');
    actor.stop();
    // The same node with its retries spent.
    const spent = machine.resolveState({
      value: fresh.value,
      context: { ...fresh.context, nodeRetries: { w: 2 } },
    });
    // XState's own done event for the handler actor, kept and applied twice (the machine's event type
    // lists only the events it is sent from outside).
    const done = {
      type: 'xstate.done.actor.w',
      actorId: 'w',
      output: { outcome: { status: 'retry' } },
    };
    const event = done as unknown as Parameters<typeof actor.send>[0];
    const [retried] = transition(machine, fresh, event);
    const [failed] = transition(machine, spent, event);
    expect(retried.value).toEqual({ w: 'backoff' });
    expect(retried.context.nodeRetries).toEqual({ w: 1 });
    expect(failed.value).toEqual({ bad: 'run' });
    expect(failed.context.lastOutcome?.status).toBe('fail');
  });
});
