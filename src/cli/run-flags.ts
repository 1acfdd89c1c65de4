/** Flags shared by `run` and `resume`, as commander hands them over. */
export interface RunFlags {
  goal?: string;
  model?: string;
  provider?: string;
  logsDir?: string;
  logDir?: string;
  checkpointDir?: string;
  maxSteps?: string;
  dryRun?: boolean;
  scenario?: string;
  autoApprove?: boolean;
  json?: boolean;
  tui?: boolean;
  /** `--inspect [PORT]`: true without a port. */
  inspect?: boolean | string;
  inspectLog?: string;
}
