import { useInput } from 'ink';
import { type Dispatch, type SetStateAction, useRef } from 'react';
import { evidenceKey } from './gate-evidence.js';
import { gateInput } from './gate-input.js';
import type { PendingGate } from './gate-source.js';
import type { RunControls } from './run-controls.js';
import type { EvidenceViewState } from './use-evidence-view.js';
import type { GatePromptState } from './use-gate-prompt.js';

export interface RunKeys {
  controls: RunControls | undefined;
  onQuit: (() => void) | undefined;
  pending: PendingGate | undefined;
  prompt: GatePromptState;
  /** The node the activity pane shows, and the pane's order: the arrows move from one to the next. */
  shownId: string | undefined;
  order: readonly string[];
  setSelected: Dispatch<SetStateAction<string | undefined>>;
  setExpanded: Dispatch<SetStateAction<boolean>>;
  setHelp: Dispatch<SetStateAction<boolean>>;
  /** The evidence beside a gate: its scroll and focus, how many lines it has and shows. */
  evidence: EvidenceViewState & { total: number; rows: number };
}

/** The TUI's keys: Ctrl-C pauses then cancels, a pending gate takes the rest, else navigation. */
export function useRunKeys({
  controls,
  onQuit,
  pending,
  prompt,
  shownId,
  order,
  evidence,
  ...set
}: RunKeys): void {
  const interrupts = useRef(0);
  useInput((key, k) => {
    if (k.ctrl && key === 'c') {
      if (!controls) return onQuit?.();
      interrupts.current += 1;
      // At a gate no work could finish first: pausing "after this node" would wait for an answer. Stop
      // now; the question stays open and the resumed gate asks it again.
      if (pending) controls.cancel();
      // The pipeline actor takes the pause; the store shows "pausing" once the actor has it (actor-status.ts).
      else if (interrupts.current === 1) controls.pause();
      else controls.cancel();
      return;
    }
    // The status bar offers `?` at a gate too; only typed free text takes it as a character.
    if (pending && key === '?' && !prompt.inputRef.current.typing) return set.setHelp((h) => !h);
    if (pending) {
      // Tab gives the keys to the evidence and back; while it has them they scroll it, nothing answers.
      const scrolled = evidenceKey(
        evidence.viewRef.current,
        { ...k, input: key },
        evidence.total,
        evidence.rows,
      );
      if (scrolled) return evidence.setView(scrolled);
      const result = gateInput(pending.question, prompt.inputRef.current, { ...k, input: key });
      const refused = result.answer ? pending.answer(result.answer) : undefined;
      prompt.setInput(refused ? { ...result.state, error: refused } : result.state);
      return;
    }
    if (key === 'q' && onQuit) return onQuit();
    if (key === '?') return set.setHelp((h) => !h);
    if (key === 'f') return set.setSelected(undefined);
    if (k.return) return set.setExpanded((e) => !e);
    if (k.upArrow || k.downArrow) {
      const index = shownId === undefined ? -1 : order.indexOf(shownId);
      const next = order[Math.min(order.length - 1, Math.max(0, index + (k.upArrow ? -1 : 1)))];
      set.setSelected(next);
    }
  });
}
