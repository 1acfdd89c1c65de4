/** Events a pipeline actor accepts. */
export type PipelineMachineEvent =
  /** Finish the running node, then stop paused. */
  | { type: 'PAUSE' }
  /** Stop at once: the running node is aborted and runs again on resume. */
  | { type: 'CANCEL'; by?: string }
  /** Stop at once like CANCEL, but paused, saying why (`reason: 'budget'` when the cost budget is spent). */
  | { type: 'PAUSE_NOW'; reason: string; message: string }
  /** A manager loop's message to its child: the child's next node sees it in its context. */
  | { type: 'STEER'; message: string };
