/** Pause/cancel of a run this process owns (absent when the TUI is attached to another's run). */
export interface RunControls {
  pause(): void;
  cancel(): void;
}
