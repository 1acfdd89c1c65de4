import { type MutableRefObject, useEffect, useRef, useState } from 'react';
import { type GateInputState, initialGateInput } from './gate-input.js';
import type { PendingGate } from './gate-source.js';

export interface GatePromptState {
  input: GateInputState;
  /** The latest prompt state: keys may arrive faster than renders, so the key handler reads this. */
  inputRef: MutableRefObject<GateInputState>;
  setInput: (next: GateInputState) => void;
}

/** What has been typed or chosen at the pending gate; reset when another question comes. */
export function useGatePrompt(pending: PendingGate | undefined): GatePromptState {
  const [input, setInputState] = useState<GateInputState>({ cursor: 0, typed: '', typing: false });
  const inputRef = useRef(input);
  const setInput = (next: GateInputState) => {
    inputRef.current = next;
    setInputState(next);
  };
  const gateId = pending?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when another question comes
  useEffect(() => {
    if (pending) setInput(initialGateInput(pending.question));
  }, [gateId]);
  return { input, inputRef, setInput };
}
