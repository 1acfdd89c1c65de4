import type { AnyActorRef, InspectionEvent } from 'xstate';

/** The version of the `@statelyai/inspect` message format we speak (its `_version` field). */
const FORMAT_VERSION = '0.7.2';

const definitions = new WeakMap<object, string>();

/** Functions in a config (input mappers) become `{ type: name }`, as the Stately inspector expects. */
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

/** XState announces an actor before its first snapshot exists; the inspector then shows it as active. */
function initialSnapshot(actorRef: AnyActorRef): unknown {
  try {
    return frozen(actorRef.getSnapshot());
  } catch {
    return { status: 'active' };
  }
}

/**
 * An XState inspection event in the JSON shape the Stately inspector reads (the messages of
 * `@statelyai/inspect`'s WebSocket transport), converted synchronously, so a stream of them is in
 * the order the actor system produced them.
 */
export function toStatelyInspectionEvent(event: InspectionEvent): Record<string, unknown> | undefined {
  const actorRef = event.actorRef as AnyActorRef;
  const common = {
    sessionId: actorRef.sessionId,
    _version: FORMAT_VERSION,
    createdAt: Date.now().toString(),
    id: null,
    rootId: event.rootId,
  };
  switch (event.type) {
    case '@xstate.actor': {
      const config = (actorRef as { logic?: { config?: { id?: unknown } } }).logic?.config;
      const name =
        actorRef.id === actorRef.sessionId && typeof config?.id === 'string' ? config.id : actorRef.id;
      return {
        type: '@xstate.actor',
        name,
        definition: definitionOf(actorRef, name),
        ...common,
        parentId: actorRef._parent?.sessionId,
        snapshot: initialSnapshot(actorRef),
      };
    }
    case '@xstate.event':
      return {
        type: '@xstate.event',
        event: frozen(event.event),
        sourceId: event.sourceRef?.sessionId,
        ...common,
      };
    case '@xstate.snapshot':
      return {
        type: '@xstate.snapshot',
        event: frozen(event.event),
        snapshot: frozen(event.snapshot),
        ...common,
      };
    default:
      return undefined;
  }
}
