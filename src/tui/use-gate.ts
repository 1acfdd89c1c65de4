import { useSyncExternalStore } from 'react';
import type { GateSource, PendingGate } from './gate-source.js';

const none = () => () => {};

/** The question waiting now, if any; re-renders when it changes. */
export function useGate(source: GateSource | undefined): PendingGate | undefined {
  return useSyncExternalStore(source ? source.subscribe : none, () => source?.current());
}
