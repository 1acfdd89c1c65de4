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
  /** `--inspect [PORT]`: true without a port. */
  inspect?: boolean | string;
  /** `--inspect-origin`, collected and normalised: web origins allowed to read the stream. */
  inspectOrigin?: string[];
  inspectLog?: string;
  /** Real runs: keep every model exchange in this cassette / answer every call from it. */
  record?: string;
  replay?: string;
  /** USD budget of the run (overrides the graph's max_cost_usd); checked by commander (exit 2). */
  maxCost?: number;
  /** Run models without a catalog price under a budget, uncounted. */
  allowUnpriced?: boolean;
  /** Where the agents work (default: the current directory). */
  workdir?: string;
  /** `--no-snapshots`: false. */
  snapshots?: boolean;
  snapshotMaxFile?: number;
  snapshotBudget?: number;
  /** `resume --restore-tree`: reset the working tree to the last snapshot. */
  restoreTree?: boolean;
  /** `--allow-read DIR`, collected: more folders the pipeline may name files in. */
  allowRead?: string[];
  /** `--sandbox on|off` (default on; decision 0341). */
  sandbox?: 'on' | 'off';
  /** `--otel`: export the run's trace (also on when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  otel?: boolean;
  /** `--otel-content`: prompts, responses and tool arguments in the trace. */
  otelContent?: boolean;
}
