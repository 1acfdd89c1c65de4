import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { type Actor, createActor, type Snapshot, toPromise } from 'xstate';
import type {
  HandlerInput,
  Outcome,
  PipelineMachine,
  PipelineServices,
  RestoreOptions,
} from '../../src/index.js';
import {
  AttractorError,
  compileMachine,
  createDefaultRegistry,
  pipelineInput,
  providePipeline,
  restorePipeline,
} from '../../src/index.js';
import { tempDir } from '../helpers/run-helpers.js';

// A loop, a retry and a conditional route: enough context (visit counts, retries, values) to tell a
// restored run from an uninterrupted one.
const PIPELINE = `digraph p {
  graph [goal="restore"]
  start [shape=Mdiamond]
  plan [type="step"]
  build [type="step", max_retries=2, retry_policy=standard]
  check [shape=diamond]
  ship [type="step"]
  exit [shape=Msquare]
  start -> plan -> build -> check
  check -> plan [condition="context.loops=1"]
  check -> ship [condition="context.loops!=1"]
  ship -> exit
}`;

type StepHandler = (input: HandlerInput) => Promise<Outcome>;

/** `step` nodes count their calls into the context; `build` asks for one retry on its first attempt. */
function stepHandler(calls: string[], hold?: (input: HandlerInput) => Promise<void>): StepHandler {
  return async (input) => {
    const id = input.node.id;
    calls.push(`${id}#${input.attempt}`);
    await hold?.(input);
    const loops = Number(input.context.get('loops') ?? 0);
    if (id === 'build' && input.attempt === 1) return { status: 'retry' };
    return {
      status: 'success',
      context_updates: {
        [`seen.${id}`]: Number(input.context.get(`seen.${id}`) ?? 0) + 1,
        ...(id === 'plan' ? { loops: loops + 1 } : {}),
      },
    };
  };
}

function machineWith(handler: StepHandler): PipelineMachine {
  const compiled = compileMachine(PIPELINE, { customHandlerTypes: ['step'] });
  const services: PipelineServices = {
    registry: createDefaultRegistry().register('step', handler),
    random: () => 0.5, // no jitter: the standard policy waits 200 ms before the second attempt
  };
  return providePipeline(compiled, services);
}

const input = (runDir: string) =>
  pipelineInput(compileMachine(PIPELINE, { customHandlerTypes: ['step'] }), { runDir });

/** What two runs must agree on; the run directory differs by construction. */
const outcome = (actor: Actor<PipelineMachine>) => {
  const { value, context } = actor.getSnapshot();
  return { value, context: { ...context, runDir: '<run>' } };
};

/** Resolves with the persisted snapshot, as JSON, the first time `when` holds. */
function persistWhen(actor: Actor<PipelineMachine>, when: (value: unknown) => boolean): Promise<string> {
  return new Promise((resolve) => {
    const sub = actor.subscribe((snapshot) => {
      if (!when(snapshot.value)) return;
      sub.unsubscribe();
      resolve(JSON.stringify(actor.getPersistedSnapshot()));
    });
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('restorePipeline', () => {
  it('continues a run persisted while a handler ran: the node re-runs, the run ends as an uninterrupted one', async () => {
    vi.useFakeTimers();
    const plainCalls: string[] = [];
    const plain = createActor(machineWith(stepHandler(plainCalls)), { input: input(tempDir()) }).start();
    const plainDone = toPromise(plain);
    await vi.runAllTimersAsync();
    await plainDone;

    // The second visit to `ship` never finishes in the first actor: it is stopped mid-handler.
    const firstCalls: string[] = [];
    let aborted = false;
    const first = createActor(
      machineWith(
        stepHandler(firstCalls, (i) =>
          i.node.id === 'ship'
            ? new Promise((_, reject) =>
                i.signal.addEventListener('abort', () => {
                  aborted = true;
                  reject(i.signal.reason);
                }),
              )
            : Promise.resolve(),
        ),
      ),
      { input: input(tempDir()) },
    );
    const stored = persistWhen(first, (v) => JSON.stringify(v) === '{"ship":"run"}');
    first.start();
    await vi.runAllTimersAsync();
    const json = await stored;
    first.stop();
    expect(aborted).toBe(true);

    const restoredCalls: string[] = [];
    const restored = restorePipeline(machineWith(stepHandler(restoredCalls)), JSON.parse(json)).start();
    const done = toPromise(restored);
    await vi.runAllTimersAsync();
    await done;

    expect(outcome(restored)).toEqual(outcome(plain));
    expect(restored.getSnapshot().value).toBe('__completed');
    expect(restored.getSnapshot().context.completedNodes).toEqual(plain.getSnapshot().context.completedNodes);
    // Only the interrupted node ran again; nothing the snapshot recorded as done did.
    expect(restoredCalls).toEqual(['ship#1']);
    expect([...firstCalls, ...restoredCalls.slice(1)]).toEqual(plainCalls);
  });

  it('restores a snapshot persisted while the visit counts were still context values', async () => {
    vi.useFakeTimers();
    const plain = createActor(machineWith(stepHandler([])), { input: input(tempDir()) }).start();
    const plainDone = toPromise(plain);
    await vi.runAllTimersAsync();
    await plainDone;

    const first = createActor(machineWith(stepHandler([])), { input: input(tempDir()) });
    const stored = persistWhen(first, (v) => JSON.stringify(v) === '{"ship":"run"}');
    first.start();
    await vi.runAllTimersAsync();
    const snapshot = JSON.parse(await stored);
    first.stop();
    // The earlier layout: `internal.visit_count.*` among the values, no `visits`, in the machine's
    // context and in the running handler's input alike.
    const toOldLayout = (context: { values: Record<string, unknown>; visits?: [string, number][] }) => {
      for (const [id, n] of context.visits ?? []) context.values[`internal.visit_count.${id}`] = n;
      delete context.visits;
    };
    expect(snapshot.context.visits).toContainEqual(['plan', 2]);
    toOldLayout(snapshot.context);
    toOldLayout(snapshot.children.ship.snapshot.input.context);

    const restored = restorePipeline(machineWith(stepHandler([])), snapshot).start();
    const done = toPromise(restored);
    await vi.runAllTimersAsync();
    await done;
    expect(outcome(restored)).toEqual(outcome(plain));
  });

  it('continues a run persisted during a retry wait, which waits its full delay again', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const first = createActor(machineWith(stepHandler(calls)), { input: input(tempDir()) });
    const stored = persistWhen(first, (v) => JSON.stringify(v) === '{"build":"backoff"}');
    first.start();
    await vi.advanceTimersByTimeAsync(0);
    const json = await stored;
    first.stop();
    expect(calls).toEqual(['plan#1', 'build#1']);

    const restored = restorePipeline(machineWith(stepHandler(calls)), JSON.parse(json)).start();
    await vi.advanceTimersByTimeAsync(199);
    expect(restored.getSnapshot().value).toEqual({ build: 'backoff' });
    expect(calls).toEqual(['plan#1', 'build#1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.slice(0, 3)).toEqual(['plan#1', 'build#1', 'build#2']);
    await vi.runAllTimersAsync();
    await toPromise(restored);
    expect(restored.getSnapshot().value).toBe('__completed');
  });

  it('continues a parallel node persisted mid-way: the finished branch is kept, only the other re-runs', async () => {
    const FAN = `digraph f { start [shape=Mdiamond]; fan [shape=component]; a [type="step"]; b [type="step"]
      join [shape=tripleoctagon]; exit [shape=Msquare]
      start -> fan; fan -> a; fan -> b; a -> join; b -> join; join -> exit }`;
    const compiled = compileMachine(FAN, { customHandlerTypes: ['step'] });
    const provide = (
      calls: string[],
      emit: PipelineServices['emit'],
      hold?: (i: HandlerInput) => Promise<void>,
    ) =>
      providePipeline(compiled, {
        registry: createDefaultRegistry().register('step', stepHandler(calls, hold)),
        emit,
      });
    const firstCalls: string[] = [];
    let branchADone!: () => void;
    const aDone = new Promise<void>((resolve) => {
      branchADone = resolve;
    });
    const first = createActor(
      provide(
        firstCalls,
        (kind, data) => {
          if (kind === 'parallel.branch.complete' && data?.['branch'] === 'a') branchADone();
        },
        (i) => (i.node.id === 'b' ? new Promise(() => {}) : Promise.resolve()),
      ),
      { input: pipelineInput(compiled, { runDir: tempDir() }) },
    ).start();
    await aDone;
    const json = JSON.stringify(first.getPersistedSnapshot());
    first.stop();
    expect(JSON.parse(json).value).toEqual({ fan: 'run' });

    const restoredCalls: string[] = [];
    const restoredEvents: string[] = [];
    const restored = restorePipeline(
      provide(restoredCalls, (kind, data) => {
        const d: { branch?: string; restored?: true } = data;
        if (kind === 'parallel.branch.complete')
          restoredEvents.push(`${d.branch}${d.restored ? ' (restored)' : ''}`);
      }),
      JSON.parse(json),
    ).start();
    await toPromise(restored);
    expect(restored.getSnapshot().value).toBe('__completed');
    expect(firstCalls).toEqual(['a#1', 'b#1']);
    expect(restoredCalls).toEqual(['b#1']);
    expect(restoredEvents.sort()).toEqual(['a (restored)', 'b']);
    expect(restored.getSnapshot().context.values).toMatchObject({ 'a.seen.a': 1, 'b.seen.b': 1 });
  });

  it('restores a finished run as finished, running nothing', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const actor = createActor(machineWith(stepHandler(calls)), { input: input(tempDir()) }).start();
    const done = toPromise(actor);
    await vi.runAllTimersAsync();
    await done;
    const json = JSON.stringify(actor.getPersistedSnapshot());
    const again: string[] = [];
    const restored = restorePipeline(machineWith(stepHandler(again)), JSON.parse(json)).start();
    expect(restored.getSnapshot().status).toBe('done');
    expect(outcome(restored)).toEqual(outcome(actor));
    expect(again).toEqual([]);
  });

  it('restores a snapshot persisted when the running actor was called "handler"', async () => {
    const snapshot = await valid();
    const children = snapshot['children'] as Record<string, unknown>;
    const legacy = { ...snapshot, children: { handler: children['plan'] } };
    const restored = restorePipeline(machineWith(stepHandler([])), legacy);
    expect(Object.keys(restored.getSnapshot().children)).toEqual(['plan']);
  });

  it('gives a persisted snapshot that survives a JSON round trip unchanged', async () => {
    const actor = createActor(machineWith(stepHandler([], () => new Promise(() => {}))), {
      input: input(tempDir()),
    });
    const stored = persistWhen(actor, (v) => JSON.stringify(v) === '{"plan":"run"}');
    actor.start();
    const persisted: unknown = JSON.parse(await stored);
    actor.stop();
    expect(JSON.parse(JSON.stringify(persisted))).toEqual(persisted);
    expect(persisted).toMatchObject({
      status: 'active',
      value: { plan: 'run' },
      children: { plan: { src: 'handler.step', snapshot: { input: { node: 'plan' } } } },
    });
  });

  const valid = () =>
    new Promise<Record<string, unknown>>((resolve) => {
      const actor = createActor(machineWith(stepHandler([], () => new Promise(() => {}))), {
        input: input(tempDir()),
      });
      persistWhen(actor, (v) => JSON.stringify(v) === '{"plan":"run"}').then((json) => {
        actor.stop();
        resolve(JSON.parse(json));
      });
      actor.start();
    });

  it.each([
    ['something that is not a snapshot', () => ({ hello: 'world' }), /not a persisted pipeline snapshot/],
    [
      'a snapshot taken after stop()',
      (s: Record<string, unknown>) => ({ ...s, status: 'stopped' }),
      /after actor\.stop\(\)/,
    ],
    [
      'a state another pipeline has',
      (s: Record<string, unknown>) => ({ ...s, value: { deploy: 'run' } }),
      /not a state of this pipeline/,
    ],
    [
      'an actor this pipeline does not have',
      (s: Record<string, unknown>) => ({
        ...s,
        children: { handler: { src: 'handler.nope', snapshot: { status: 'active' } } },
      }),
      /"handler\.nope", which this pipeline does not have/,
    ],
    [
      'a context missing what the machine reads (an older or cut snapshot)',
      (s: Record<string, unknown>) => {
        const { tags: _dropped, ...context } = s['context'] as Record<string, unknown>;
        return { ...s, context };
      },
      /not a persisted pipeline snapshot.*tags/s,
    ],
    [
      'a running state without its actor',
      (s: Record<string, unknown>) => ({ ...s, children: {} }),
      /no "plan" actor to continue/,
    ],
  ])('refuses %s with SNAPSHOT_INVALID', async (_name, edit, message) => {
    const bad = edit(await valid());
    const attempt = () => restorePipeline(machineWith(stepHandler([])), bad);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect(AttractorError.isInstance(error) && error.code).toBe('SNAPSHOT_INVALID');
    }
  });

  it('pins the persistence API types', () => {
    expectTypeOf(restorePipeline).parameters.toEqualTypeOf<[PipelineMachine, unknown, RestoreOptions?]>();
    expectTypeOf(restorePipeline).returns.toEqualTypeOf<Actor<PipelineMachine>>();
    const actor = createActor(machineWith(stepHandler([])), { input: input('/tmp/x') });
    expectTypeOf(actor.getPersistedSnapshot()).toEqualTypeOf<Snapshot<unknown>>();
    expectTypeOf<RestoreOptions>().toHaveProperty('inspect');
    expectTypeOf<RestoreOptions>().not.toHaveProperty('snapshot');
  });
});
