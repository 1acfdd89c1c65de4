import type { AnyActorRef, InspectionEvent } from 'xstate';

/** The version of the `@statelyai/inspect` message format we speak (its `_version` field). */
const FORMAT_VERSION = '0.7.2';

const definitions = new WeakMap<object, string>();

/**
 * Functions in a config become `{ type: name }`, as the Stately inspector expects. The pipeline's
 * guard params and handler inputs are functions that print as the data they were made from (their
 * `toJSON`, which JSON.stringify applies before this replacer), so the definition holds what `compile
 * --format xstate` prints.
 */
function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'function' ? { type: value.name || 'function' } : value;
}

function definitionOf(actorRef: AnyActorRef, name: string): string {
  const logic = (actorRef as { logic?: { config?: unknown } }).logic;
  const config = logic?.config;
  if (typeof config !== 'object' || config === null) return JSON.stringify({ id: name });
  let cached = definitions.get(config);
  if (cached === undefined) {
    cached = JSON.stringify(config, replacer);
    definitions.set(config, cached);
  }
  return cached;
}

/** A snapshot as it is now: serialised at once, so later changes cannot leak into what was sent. */
function frozen(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, replacer) ?? 'null');
}

type Message = Record<string, unknown>;

function common(event: InspectionEvent, actorRef: AnyActorRef) {
  return {
    sessionId: actorRef.sessionId,
    _version: FORMAT_VERSION,
    createdAt: Date.now().toString(),
    id: null,
    rootId: event.rootId,
  };
}

function actorMessage(event: InspectionEvent, actorRef: AnyActorRef, snapshot: unknown): Message {
  const config = (actorRef as { logic?: { config?: { id?: unknown } } }).logic?.config;
  const name = actorRef.id === actorRef.sessionId && typeof config?.id === 'string' ? config.id : actorRef.id;
  return {
    type: '@xstate.actor',
    name,
    definition: definitionOf(actorRef, name),
    ...common(event, actorRef),
    parentId: actorRef._parent?.sessionId,
    snapshot: frozen(snapshot),
  };
}

/** A message that cannot be serialised (a context holding a cycle) is skipped, not worth a run. */
function safely(build: () => Message, emit: (message: Message) => void): void {
  let message: Message;
  try {
    message = build();
  } catch {
    return;
  }
  emit(message);
}

/** The actor's snapshot, or undefined while XState is still constructing it. */
function snapshotOf(actorRef: AnyActorRef): unknown {
  try {
    return actorRef.getSnapshot();
  } catch {
    return undefined;
  }
}

/**
 * Converts XState inspection events into the JSON messages the Stately inspector reads (those of
 * `@statelyai/inspect`'s WebSocket transport), synchronously and in the order the actor system
 * produced them.
 *
 * XState announces an actor (`@xstate.actor`) from its constructor, before its first snapshot exists.
 * The announcement is therefore held until the next inspection event (or the next microtask), when
 * the actor has its real initial snapshot, and sent with it: an inspector sees each actor's state from
 * the start instead of `null`. Everything else is sent at once, after any announcement held so far.
 */
export function createStatelyConverter(emit: (message: Message) => void): {
  convert(event: InspectionEvent): void;
  /** Sends the announcements still held. */
  flush(): void;
} {
  let held: Array<{ event: InspectionEvent; actorRef: AnyActorRef }> = [];
  let scheduled = false;
  const flush = (): void => {
    while (held.length > 0) {
      const next = held[0] as { event: InspectionEvent; actorRef: AnyActorRef };
      const snapshot = snapshotOf(next.actorRef);
      // Still being constructed (a parent whose initial state starts children): wait, keeping the order.
      if (snapshot === undefined) return;
      held.shift();
      safely(() => actorMessage(next.event, next.actorRef, snapshot), emit);
    }
  };
  return {
    flush() {
      flush();
      // An actor never given a snapshot (its construction failed) is still announced.
      for (const { event, actorRef } of held.splice(0))
        safely(() => actorMessage(event, actorRef, { status: 'active' }), emit);
    },
    convert(event) {
      const actorRef = event.actorRef as AnyActorRef;
      if (event.type === '@xstate.actor') {
        held = [...held, { event, actorRef }];
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(() => {
            scheduled = false;
            flush();
          });
        }
        return;
      }
      flush();
      if (event.type === '@xstate.event') {
        safely(
          () => ({
            type: '@xstate.event',
            event: frozen(event.event),
            sourceId: event.sourceRef?.sessionId,
            ...common(event, actorRef),
          }),
          emit,
        );
      } else if (event.type === '@xstate.snapshot') {
        safely(
          () => ({
            type: '@xstate.snapshot',
            event: frozen(event.event),
            snapshot: frozen(event.snapshot),
            ...common(event, actorRef),
          }),
          emit,
        );
      }
    },
  };
}
