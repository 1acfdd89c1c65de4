import { useState } from 'react';
import { api } from './api.js';
import type { RunInfo } from './api-types.js';
import { messageOf, type PipelineSource, sourceBody } from './pipeline-source.js';
import type { RunOptions } from './run-options.js';
import { runHref } from './use-hash-route.js';

export interface StartRequest {
  source: PipelineSource;
  vars: Record<string, string>;
  options: RunOptions;
}

export interface StartRun {
  start: (request: StartRequest) => Promise<void>;
  error: string;
  busy: boolean;
}

/** Posts a new run and opens its page; the error in words when the server (or the scenario) refuses. */
export function useStartRun(): StartRun {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const start = async ({ source, vars, options }: StartRequest): Promise<void> => {
    setError('');
    let parsedScenario: unknown;
    if (options.useScenario) {
      try {
        parsedScenario = JSON.parse(options.scenario);
      } catch {
        setError('The scenario is not valid JSON.');
        return;
      }
    }
    const goal = options.goal.trim();
    const workingDir = options.workingDir.trim();
    setBusy(true);
    try {
      const run = await api<RunInfo>('/pipelines', {
        method: 'POST',
        body: {
          ...sourceBody(source),
          ...(goal ? { goal } : {}),
          ...(workingDir ? { working_dir: workingDir } : {}),
          ...(Object.keys(vars).length > 0 ? { vars } : {}),
          ...(options.useScenario ? { scenario: parsedScenario } : { dry_run: options.dryRun }),
        },
      });
      location.hash = runHref(run.id);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return { start, error, busy };
}
