import { type FormEvent, useState } from 'react';
import type { ServerInfo } from './api-types.js';
import { ParameterFields } from './ParameterFields.js';
import { PipelineSourceFields } from './PipelineSourceFields.js';
import type { PipelineSource } from './pipeline-source.js';
import { RunOptionsFields } from './RunOptionsFields.js';
import { DEFAULT_RUN_OPTIONS, type RunOptions } from './run-options.js';
import { usePipelineDescription } from './use-pipeline-description.js';
import { usePipelineFiles } from './use-pipeline-files.js';
import { useStartRun } from './use-start-run.js';

/** Start a run: a pipeline from the allowed folders or pasted, its parameters, dry run or a scenario. */
export function StartForm({ info }: { info: ServerInfo | undefined }) {
  const [source, setSource] = useState<PipelineSource>({ kind: 'paste', text: '' });
  const files = usePipelineFiles((path) => setSource({ kind: 'file', path }));
  const { described, describeError } = usePipelineDescription(source);
  const [values, setValues] = useState<Record<string, string>>({});
  const [options, setOptions] = useState<RunOptions>(DEFAULT_RUN_OPTIONS);
  const { start, error, busy } = useStartRun();

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const vars = Object.fromEntries(
      (described?.vars ?? []).map((v) => [v.name, values[v.name] ?? v.default ?? '']),
    );
    await start({ source, vars, options });
  };

  return (
    <main className="page narrow">
      <h1>New run</h1>
      <form id="start-form" onSubmit={submit} className="stack">
        <PipelineSourceFields
          info={info}
          files={files}
          source={source}
          onSource={setSource}
          described={described}
          describeError={describeError}
        />
        {described && <ParameterFields vars={described.vars} values={values} onValues={setValues} />}
        <RunOptionsFields options={options} onOptions={setOptions} />
        <div>
          <button type="submit" id="start" className="primary" disabled={busy}>
            Start run
          </button>
        </div>
        {error && (
          <p className="error" role="alert" id="submit-error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
