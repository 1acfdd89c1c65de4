import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { MachineConfig } from '../../src/compiler/lower/machine-config.js';
import { compile, createDefaultRegistry, createPipelineMachine, pipelineInput } from '../../src/index.js';
import { tempDir } from './run-helpers.js';

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
        const done = c.states['work']?.states?.['run']?.invoke?.onDone;
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

  it('turns a handler error into a FAIL outcome through params.error', async () => {
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
});
