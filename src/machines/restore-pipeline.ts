import { type Actor, type ActorOptions, createActor, type Snapshot } from 'xstate';
import * as z from 'zod';
import { backoffActorId, handlerActorId } from '../compiler/lower/state-keys.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineMachine } from './pipeline-machine.js';
import { splitVisitCounts } from './visit-counts.js';

/** The parts of a persisted pipeline snapshot restoring relies on; XState's own fields pass through. */
const PersistedPipelineSnapshotSchema = z.looseObject({
  status: z.enum(['active', 'done', 'error', 'stopped']),
  value: z.union([z.string(), z.record(z.string(), z.string())]),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  context: z.looseObject({
    values: z.record(z.string(), z.unknown()),
    // Absent from snapshots persisted before the counts moved out of the values (then they are in them).
    visits: z.array(z.tuple([z.string(), z.number()])).optional(),
    completedNodes: z.array(z.string()),
    nodeOutcomes: z.record(z.string(), z.string()),
    nodeRetries: z.record(z.string(), z.number()),
    failedNodes: z.array(z.string()),
    logs: z.array(z.looseObject({ node: z.string(), message: z.string() })),
    steps: z.number(),
    maxSteps: z.number(),
    retryPending: z.boolean(),
    pauseRequested: z.boolean(),
    restarts: z.number(),
    branch: z.boolean(),
    degradeFullFidelity: z.boolean(),
    fidelity: z.string(),
    runDir: z.string(),
    tags: z.record(z.string(), z.string()),
  }),
  children: z.record(
    z.string(),
    z.looseObject({ src: z.string(), snapshot: z.looseObject({ status: z.string() }) }),
  ),
});

/** The actor a node's sub-state runs, by the lowering's invoke ids; and the id it had before actors were named after their node. */
const RUNNING_CHILD: Record<string, { id: (nodeId: string) => string; legacy: string }> = {
  run: { id: handlerActorId, legacy: 'handler' },
  backoff: { id: backoffActorId, legacy: 'backoff' },
};

export type RestoreOptions = Omit<ActorOptions<PipelineMachine>, 'snapshot' | 'input'>;

/**
 * A pipeline actor continuing from a snapshot `actor.getPersistedSnapshot()` returned, typically
 * stored as JSON and parsed back (not started: call `.start()`, as with `createActor`). Pass the machine
 * `providePipeline` returns for the same pipeline, with this process's services.
 *
 * What runs again: the actor that was running when the snapshot was taken starts over with the input
 * it was given — the interrupted node's handler re-runs from its start (as with a resume from a
 * checkpoint), a retry wait waits its full delay again. Completed nodes do not run again, and the
 * context (values, retries, visit counts, steps) is exactly what it was, so the run ends as an
 * uninterrupted one would. Events emitted before the snapshot are not emitted again.
 *
 * The snapshot is checked first (`SNAPSHOT_INVALID`): its shape, that it names states and actors of this
 * machine, and that it was taken before `actor.stop()` — stopping drops the running actors, so a
 * stopped snapshot cannot continue.
 *
 * @example
 * const stored = JSON.stringify(actor.getPersistedSnapshot()); // e.g. in actor.subscribe()
 * // later, in another process:
 * const restored = restorePipeline(providePipeline(compiled, services), JSON.parse(stored)).start();
 */
export function restorePipeline(
  machine: PipelineMachine,
  stored: unknown,
  options: RestoreOptions = {},
): Actor<PipelineMachine> {
  const parsed = PersistedPipelineSnapshotSchema.safeParse(stored);
  if (!parsed.success)
    throw invalid(`it is not a persisted pipeline snapshot (${z.prettifyError(parsed.error)})`);
  // Snapshots persisted before the visit counts left the values carry them as values: move them.
  const persisted = parsed.data.context.visits
    ? parsed.data
    : {
        ...parsed.data,
        context: { ...parsed.data.context, ...splitVisitCounts(parsed.data.context.values) },
      };
  if (persisted.status === 'stopped')
    throw invalid(
      'it was taken after actor.stop(), which drops the running actors; persist before stopping (e.g. in actor.subscribe())',
    );
  const [stateKey, subState] =
    typeof persisted.value === 'string'
      ? [persisted.value, undefined]
      : (Object.entries(persisted.value)[0] ?? []);
  if (stateKey === undefined || !Object.hasOwn(machine.states, stateKey))
    throw invalid(`its state ${JSON.stringify(persisted.value)} is not a state of this pipeline`);
  const actors = machine.implementations.actors;
  for (const [id, child] of Object.entries(persisted.children))
    if (!Object.hasOwn(actors, child.src))
      throw invalid(`its running actor "${id}" is "${child.src}", which this pipeline does not have`);
  const nodeId = nodeIdOf(machine, stateKey);
  const expected = subState !== undefined && nodeId !== undefined ? RUNNING_CHILD[subState] : undefined;
  const running = expected && nodeId !== undefined ? expected.id(nodeId) : undefined;
  const children =
    expected && running ? renamed(persisted.children, expected.legacy, running) : persisted.children;
  if (persisted.status === 'active' && running && !children[running])
    throw invalid(`it is in ${stateKey}.${subState} but has no "${running}" actor to continue`);

  const named = { ...persisted, children };
  const snapshot: Snapshot<unknown> =
    persisted.status === 'done'
      ? { ...named, status: 'done', output: persisted.output, error: undefined }
      : persisted.status === 'error'
        ? { ...named, status: 'error', output: undefined, error: persisted.error }
        : { ...named, status: 'active', output: undefined, error: undefined };
  const { context } = persisted;
  return createActor(machine, {
    ...options,
    snapshot,
    // XState ignores `input` when it restores a snapshot; the machine's type requires one.
    input: {
      startAt: stateKey,
      runDir: context.runDir,
      maxSteps: context.maxSteps,
      values: context.values,
    },
  });
}

/** The node a top-level state of the machine stands for (its `meta.nodeId`). */
function nodeIdOf(machine: PipelineMachine, stateKey: string): string | undefined {
  const meta: unknown = machine.states[stateKey]?.meta;
  return typeof meta === 'object' && meta !== null && 'nodeId' in meta && typeof meta.nodeId === 'string'
    ? meta.nodeId
    : undefined;
}

/** Snapshots persisted before actors were named after their node call them `handler` and `backoff`. */
function renamed<T>(children: Record<string, T>, legacy: string, id: string): Record<string, T> {
  const child = children[legacy];
  if (child === undefined || Object.hasOwn(children, id)) return children;
  const { [legacy]: _legacy, ...rest } = children;
  return { ...rest, [id]: child };
}

function invalid(why: string): AttractorError {
  return new AttractorError('SNAPSHOT_INVALID', `cannot restore the pipeline snapshot: ${why}.`);
}
