/** Flags shared by `run` and `resume`, as commander hands them over. */
export interface RunFlags {
  goal?: string;
  model?: string;
  provider?: string;
  logsDir?: string;
  logDir?: string;
  checkpointDir?: string;
  /** Already checked by commander (a bad value is a usage error, exit 2). */
  maxSteps?: number;
  /** `--set name=value`, collected. */
  set?: Record<string, string>;
  dryRun?: boolean;
  scenario?: string;
  autoApprove?: boolean;
  json?: boolean;
  tui?: boolean;
}
