import type { ActorLogic, AnyActorRef, EventObject, Snapshot } from 'xstate';

/** A handler actor's snapshot: a promise's, plus the branches and child pipelines it has running. */
export type HandlerSnapshot<TOutput, TInput> = Snapshot<TOutput> & {
  input: TInput | undefined;
  /** The pipeline actors this handler started (parallel branches, a manager's child), by actor id, while they run. */
  children: Readonly<Record<string, AnyActorRef>>;
};

const RESOLVE = 'attractor.handler.resolve';
const REJECT = 'attractor.handler.reject';
/** Sent by the handler's own code when it starts a pipeline actor under itself. */
export const CHILD_STARTED = 'attractor.handler.child';

type Resolved<TOutput> = { type: typeof RESOLVE; output: TOutput };
type Rejected = { type: typeof REJECT; error: unknown };
type ChildStarted = { type: typeof CHILD_STARTED; child: AnyActorRef };

/** Its own settling, the children it announces, and what XState sends any actor (stop, children's ends). */
export type HandlerActorEvent<TOutput> = Resolved<TOutput> | Rejected | ChildStarted | EventObject;

const is =
  <E extends EventObject>(type: E['type'], key: Exclude<keyof E, 'type'>) =>
  (event: EventObject): event is E =>
    event.type === type && key in event;
const isResolved = <TOutput>(event: EventObject): event is Resolved<TOutput> =>
  event.type === RESOLVE && 'output' in event;
const isRejected = is<Rejected>(REJECT, 'error');
const isChildStarted = is<ChildStarted>(CHILD_STARTED, 'child');

export type HandlerActorLogic<TOutput, TInput> = ActorLogic<
  HandlerSnapshot<TOutput, TInput>,
  HandlerActorEvent<TOutput>,
  TInput
>;

export interface HandlerRunArgs<TInput> {
  input: TInput;
  self: AnyActorRef;
  /** Aborts when the actor is stopped (the node was cancelled, or the run stopped). */
  signal: AbortSignal;
}

const controllers = new WeakMap<AnyActorRef, AbortController>();

/**
 * Actor logic running one node visit's handler: a promise, like XState's `fromPromise`, whose snapshot
 * also lists the pipeline actors the handler starts under itself (`children`), so `snapshot.children`
 * shows a parallel node's branches and a manager's child pipeline where they belong. A child is listed
 * from its `CHILD_STARTED` event until its done or error event reaches this actor. `restoreInput` reads
 * the input back from a persisted snapshot (undefined: it is not one, and the actor restores stopped).
 */
export function fromHandler<TOutput, TInput>(
  run: (args: HandlerRunArgs<TInput>) => Promise<TOutput>,
  restoreInput: (persisted: unknown) => TInput | undefined,
): HandlerActorLogic<TOutput, TInput> {
  return {
    config: run,
    transition(state, event, scope) {
      if (state.status !== 'active') return state;
      if (isResolved<TOutput>(event))
        return { ...state, status: 'done', output: event.output, input: undefined, children: {} };
      if (isRejected(event))
        return { ...state, status: 'error', error: event.error, input: undefined, children: {} };
      if (isChildStarted(event))
        return { ...state, children: { ...state.children, [event.child.id]: event.child } };
      if (event.type === 'xstate.stop') {
        controllers.get(scope.self)?.abort();
        controllers.delete(scope.self);
        return { ...state, status: 'stopped', input: undefined, children: {} };
      }
      return withoutEndedChild(state, event);
    },
    start(state, { self }) {
      if (state.status !== 'active' || !state.input) return;
      const controller = new AbortController();
      controllers.set(self, controller);
      // Called now, as XState's promise actors call theirs: the handler is running (and listening to its
      // signal) before anything queued behind the actor's start, a cancel among them, can happen.
      let running: Promise<TOutput>;
      try {
        running = Promise.resolve(run({ input: state.input, self, signal: controller.signal }));
      } catch (error) {
        running = Promise.reject(error);
      }
      running.then(
        (output) => settle(self, { type: RESOLVE, output }),
        (error: unknown) => settle<TOutput>(self, { type: REJECT, error }),
      );
    },
    getInitialSnapshot: (_, input) => ({
      status: 'active',
      output: undefined,
      error: undefined,
      input,
      children: {},
    }),
    // Running children are actors, not data: a restored handler starts over and starts its own again.
    getPersistedSnapshot: ({ children: _children, ...rest }) => rest,
    // A handler that was running runs again from its start, as after a resume from a checkpoint.
    restoreSnapshot: (persisted) => {
      const input = 'input' in persisted ? restoreInput(persisted.input) : undefined;
      return persisted.status === 'active' && input
        ? { status: 'active', output: undefined, error: undefined, input, children: {} }
        : { status: 'stopped', output: undefined, error: undefined, input: undefined, children: {} };
    },
  };
}

function settle<TOutput>(self: AnyActorRef, event: HandlerActorEvent<TOutput>): void {
  if (self.getSnapshot().status !== 'active') return;
  controllers.delete(self);
  self.send(event);
}

/** A child's done or error event (XState relays them to the parent): it is no longer running. */
function withoutEndedChild<S extends { children: Readonly<Record<string, AnyActorRef>> }>(
  state: S,
  event: EventObject,
): S {
  const ended = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(event.type)?.[1];
  if (ended === undefined || !Object.hasOwn(state.children, ended)) return state;
  const { [ended]: _ended, ...children } = state.children;
  return { ...state, children };
}
