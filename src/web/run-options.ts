/** The start form's options, beside the pipeline and its parameters. */
export interface RunOptions {
  goal: string;
  workingDir: string;
  dryRun: boolean;
  useScenario: boolean;
  /** The scenario's JSON as typed; parsed only on submit. */
  scenario: string;
}

export const DEFAULT_RUN_OPTIONS: RunOptions = {
  goal: '',
  workingDir: '',
  dryRun: true,
  useScenario: false,
  scenario: '',
};
