import { type FormEvent, useEffect, useState } from 'react';
import { ApiFailure, api } from './api.js';
import type { PipelineDescription, RunInfo, ServerInfo } from './api-types.js';
import { runHref } from './use-hash-route.js';

type Source = { kind: 'file'; path: string } | { kind: 'paste'; text: string };

const sourceBody = (source: Source): Record<string, string> =>
  source.kind === 'file' ? { dot_path: source.path } : { dot_source: source.text };

const messageOf = (error: unknown): string => {
  if (error instanceof ApiFailure) {
    const diagnostics = (error.body as { error?: { diagnostics?: { message: string }[] } } | null)?.error
      ?.diagnostics;
    return diagnostics?.length
      ? `${error.message} ${diagnostics.map((d) => d.message).join(' ')}`
      : error.message;
  }
  return error instanceof Error ? error.message : String(error);
};

/** Start a run: a pipeline from the allowed folders or pasted, its parameters, dry run or a scenario. */
export function StartForm({ info }: { info: ServerInfo | undefined }) {
  const [files, setFiles] = useState<string[]>([]);
  const [source, setSource] = useState<Source>({ kind: 'paste', text: '' });
  const [described, setDescribed] = useState<PipelineDescription>();
  const [describeError, setDescribeError] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [goal, setGoal] = useState('');
  const [workingDir, setWorkingDir] = useState('');
  const [dryRun, setDryRun] = useState(true);
  const [useScenario, setUseScenario] = useState(false);
  const [scenario, setScenario] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api<{ files: string[] }>('/pipeline-files').then(
      (r) => {
        setFiles(r.files);
        if (r.files[0]) setSource({ kind: 'file', path: r.files[0] });
      },
      () => {},
    );
  }, []);

  // The pipeline's declared parameters become fields; asked again when the source settles.
  useEffect(() => {
    const empty = source.kind === 'file' ? source.path === '' : source.text.trim() === '';
    if (empty) {
      setDescribed(undefined);
      setDescribeError('');
      return;
    }
    const timer = setTimeout(() => {
      api<PipelineDescription>('/describe', { method: 'POST', body: sourceBody(source) }).then(
        (d) => {
          setDescribed(d);
          setDescribeError('');
        },
        (e: unknown) => {
          setDescribed(undefined);
          setDescribeError(messageOf(e));
        },
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [source]);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setError('');
    let parsedScenario: unknown;
    if (useScenario) {
      try {
        parsedScenario = JSON.parse(scenario);
      } catch {
        setError('The scenario is not valid JSON.');
        return;
      }
    }
    const vars = Object.fromEntries(
      (described?.vars ?? []).map((v) => [v.name, values[v.name] ?? v.default ?? '']),
    );
    setBusy(true);
    try {
      const run = await api<RunInfo>('/pipelines', {
        method: 'POST',
        body: {
          ...sourceBody(source),
          ...(goal.trim() ? { goal: goal.trim() } : {}),
          ...(workingDir.trim() ? { working_dir: workingDir.trim() } : {}),
          ...(Object.keys(vars).length > 0 ? { vars } : {}),
          ...(useScenario ? { scenario: parsedScenario } : { dry_run: dryRun }),
        },
      });
      location.hash = runHref(run.id);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page narrow">
      <h1>New run</h1>
      <form id="start-form" onSubmit={submit} className="stack">
        <fieldset>
          <legend>Pipeline</legend>
          <div className="segmented">
            <label>
              <input
                type="radio"
                name="source"
                checked={source.kind === 'file'}
                disabled={files.length === 0}
                onChange={() => setSource({ kind: 'file', path: files[0] ?? '' })}
              />
              From the server's folder
            </label>
            <label>
              <input
                type="radio"
                name="source"
                checked={source.kind === 'paste'}
                onChange={() => setSource({ kind: 'paste', text: '' })}
              />
              Paste DOT
            </label>
          </div>
          {files.length === 0 && (
            <p className="muted small">
              {info?.allow_dirs
                ? 'The allowed folders hold no .dot files.'
                : 'This server has no allowed folder (--allow-dir); paste a pipeline instead.'}
            </p>
          )}
          {source.kind === 'file' ? (
            <label>
              File
              <select
                id="dot-path"
                value={source.path}
                onChange={(e) => setSource({ kind: 'file', path: e.target.value })}
              >
                {files.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <label>
              DOT source
              <textarea
                id="dot"
                spellCheck={false}
                placeholder="digraph pipeline { … }"
                value={source.text}
                onChange={(e) => setSource({ kind: 'paste', text: e.target.value })}
              />
            </label>
          )}
          {described && (
            <p className="muted" id="described">
              <strong>{described.name}</strong>
              {described.goal ? ` — ${described.goal}` : ''}
              {described.errors.length > 0 && <span className="error"> · {described.errors.join(' ')}</span>}
            </p>
          )}
          {describeError && <p className="error">{describeError}</p>}
        </fieldset>
        {described && described.vars.length > 0 && (
          <fieldset id="vars">
            <legend>Parameters</legend>
            {described.vars.map((v) => (
              <label key={v.name}>
                <span className="mono">{v.name}</span>
                <input
                  name={`var-${v.name}`}
                  value={values[v.name] ?? v.default ?? ''}
                  required={v.default === undefined}
                  onChange={(e) => setValues({ ...values, [v.name]: e.target.value })}
                />
              </label>
            ))}
          </fieldset>
        )}
        <fieldset>
          <legend>Options</legend>
          <label>
            Goal <span className="muted small">(overrides the pipeline's)</span>
            <input id="goal" value={goal} onChange={(e) => setGoal(e.target.value)} />
          </label>
          <label>
            Working folder{' '}
            <span className="muted small">
              (optional, an absolute path: where tool commands and agents work; it must lie inside a folder
              the server was started with --allow-workdir)
            </span>
            <input
              id="working-dir"
              value={workingDir}
              spellCheck={false}
              onChange={(e) => setWorkingDir(e.target.value)}
            />
          </label>
          <label className="check">
            <input
              type="checkbox"
              id="dry"
              checked={dryRun && !useScenario}
              disabled={useScenario}
              onChange={(e) => setDryRun(e.target.checked)}
            />
            Dry run <span className="muted small">(a simulated model; no tool commands run)</span>
          </label>
          <label className="check">
            <input
              type="checkbox"
              id="use-scenario"
              checked={useScenario}
              onChange={(e) => setUseScenario(e.target.checked)}
            />
            Scenario <span className="muted small">(scripted outcomes and answers, JSON)</span>
          </label>
          {useScenario && (
            <textarea
              id="scenario"
              aria-label="Scenario JSON"
              spellCheck={false}
              placeholder='{"nodes": {"test": [{"outcome": "fail"}, {"outcome": "success"}]}, "answers": {}}'
              value={scenario}
              onChange={(e) => setScenario(e.target.value)}
            />
          )}
        </fieldset>
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
