import type { AnyActorRef, EventObject } from 'xstate';

/**
 * Send `event` to a pipeline actor that has not reached its end yet. A cancel or pause that arrives after
 * the end (an abort signal, a lost lease, a user's Ctrl-C a moment late) has nothing left to stop, and
 * XState warns on stderr about an event sent to a stopped actor.
 */
export function sendWhileActive(actor: AnyActorRef, event: EventObject): void {
  if (actor.getSnapshot().status === 'active') actor.send(event);
}
