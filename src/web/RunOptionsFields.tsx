import type { RunOptions } from './run-options.js';

interface Props {
  options: RunOptions;
  onOptions: (options: RunOptions) => void;
}

/** Goal, working folder, and how the run is simulated: a dry run or a scripted scenario. */
export function RunOptionsFields({ options, onOptions }: Props) {
  const set = (patch: Partial<RunOptions>): void => onOptions({ ...options, ...patch });
  return (
    <fieldset>
      <legend>Options</legend>
      <label>
        Goal <span className="muted small">(overrides the pipeline's)</span>
        <input id="goal" value={options.goal} onChange={(e) => set({ goal: e.target.value })} />
      </label>
      <label>
        Working folder{' '}
        <span className="muted small">
          (optional, an absolute path: where tool commands and agents work; it must lie inside a folder the
          server was started with --allow-workdir)
        </span>
        <input
          id="working-dir"
          value={options.workingDir}
          spellCheck={false}
          onChange={(e) => set({ workingDir: e.target.value })}
        />
      </label>
      <label className="check">
        <input
          type="checkbox"
          id="dry"
          checked={options.dryRun && !options.useScenario}
          disabled={options.useScenario}
          onChange={(e) => set({ dryRun: e.target.checked })}
        />
        Dry run <span className="muted small">(a simulated model; no tool commands run)</span>
      </label>
      <label className="check">
        <input
          type="checkbox"
          id="use-scenario"
          checked={options.useScenario}
          onChange={(e) => set({ useScenario: e.target.checked })}
        />
        Scenario <span className="muted small">(scripted outcomes and answers, JSON)</span>
      </label>
      {options.useScenario && (
        <textarea
          id="scenario"
          aria-label="Scenario JSON"
          spellCheck={false}
          placeholder='{"nodes": {"test": [{"outcome": "fail"}, {"outcome": "success"}]}, "answers": {}}'
          value={options.scenario}
          onChange={(e) => set({ scenario: e.target.value })}
        />
      )}
    </fieldset>
  );
}
