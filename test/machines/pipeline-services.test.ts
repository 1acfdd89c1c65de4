import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Actor, createActor, toPromise } from 'xstate';
import type {
  CompiledMachine,
  MachineEmitted,
  PipelineMachine,
  PipelineMachineEvent,
  PipelineMachineInput,
  PipelineServices,
} from '../../src/index.js';
import { compileMachine, pipelineInput, providePipeline } from '../../src/index.js';
import type { PipelineMachineContext } from '../../src/machines/machine-context.js';
import { startPipeline } from '../../src/run/engine.js';
import type { EventKind } from '../../src/shared/pipeline-event.js';
import { tempDir } from '../helpers/run-helpers.js';

const GATE = `digraph g { start [shape=Mdiamond]; ask [shape=hexagon, label="Go?"]; exit [shape=Msquare]
  start -> ask; ask -> exit [label="[Y] Yes"] }`;
const LLM = `digraph g { start [shape=Mdiamond]; write [prompt="hi"]; exit [shape=Msquare]; start -> write -> exit }`;

describe('no silent defaults', () => {
  it.each([
    ['a human gate without an interviewer', GATE, /human gate "ask" needs an answer.*without an interviewer/],
    ['an LLM node without a backend', LLM, /node "write" needs an LLM backend.*without one/],
  ])('%s fails at that node with a clear error', async (_name, source, message) => {
    const result = await startPipeline({ source, runsRoot: tempDir(), durable: false }).result;
    expect(result.status).toBe('failed');
    expect(result.failure?.reason).toMatch(message);
  });

  it('an embedder runs a machine with createActor alone once services are provided', async () => {
    const compiled = compileMachine(GATE);
    const machine = providePipeline(compiled, {
      interviewer: { ask: async (q) => ({ selected: q.options[0] }) },
    });
    const actor = createActor(machine, { input: pipelineInput(compiled, { runDir: tempDir() }) });
    actor.start();
    await toPromise(actor).catch(() => undefined);
    expect(actor.getSnapshot().value).toBe('__completed');
    expect(actor.getSnapshot().context.completedNodes).toEqual(['start', 'ask', 'exit']);
  });
});

describe('public API types', () => {
  it('pins the embedding surface', () => {
    expectTypeOf(compileMachine)
      .parameter(0)
      .toEqualTypeOf<string | import('../../src/compiler.js').PipelineGraph>();
    expectTypeOf(compileMachine).returns.toEqualTypeOf<CompiledMachine>();
    expectTypeOf(providePipeline).parameters.toEqualTypeOf<[CompiledMachine, PipelineServices?]>();
    expectTypeOf(providePipeline).returns.toEqualTypeOf<PipelineMachine>();
    expectTypeOf(pipelineInput).returns.toEqualTypeOf<PipelineMachineInput>();
    const actor = createActor(providePipeline(compileMachine(GATE)), {
      input: pipelineInput(compileMachine(GATE), { runDir: '/tmp/x' }),
    });
    expectTypeOf(actor).toEqualTypeOf<Actor<PipelineMachine>>();
    expectTypeOf(actor.getSnapshot().context).toEqualTypeOf<PipelineMachineContext>();
    expectTypeOf(actor.send).parameter(0).toEqualTypeOf<PipelineMachineEvent>();
    actor.on('pipeline.event', (e) => {
      expectTypeOf(e).toMatchTypeOf<Extract<MachineEmitted, { type: 'pipeline.event' }>>();
      expectTypeOf(e.kind).toEqualTypeOf<EventKind>();
    });
  });
});
