import { type MutableRefObject, useEffect, useRef, useState } from 'react';
import { type EvidenceView, initialEvidenceView } from './gate-evidence.js';

export interface EvidenceViewState {
  view: EvidenceView;
  /** The latest view: keys may arrive faster than renders, so the key handler reads this. */
  viewRef: MutableRefObject<EvidenceView>;
  setView: (next: EvidenceView) => void;
}

/** Where the keys are at a gate and how far its evidence is scrolled; back to the options for each new gate. */
export function useEvidenceView(gateId: string | undefined): EvidenceViewState {
  const [view, setViewState] = useState<EvidenceView>(initialEvidenceView);
  const viewRef = useRef(view);
  const setView = (next: EvidenceView) => {
    viewRef.current = next;
    setViewState(next);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when another question comes
  useEffect(() => {
    setView(initialEvidenceView);
  }, [gateId]);
  return { view, viewRef, setView };
}
