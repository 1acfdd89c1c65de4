import type { PipelineDescription, ServerInfo } from './api-types.js';
import type { PipelineSource } from './pipeline-source.js';

interface Props {
  info: ServerInfo | undefined;
  files: string[];
  source: PipelineSource;
  onSource: (source: PipelineSource) => void;
  described: PipelineDescription | undefined;
  describeError: string;
}

function SourceChoice({ files, source, onSource }: Pick<Props, 'files' | 'source' | 'onSource'>) {
  return (
    <div className="segmented">
      <label>
        <input
          type="radio"
          name="source"
          checked={source.kind === 'file'}
          disabled={files.length === 0}
          onChange={() => onSource({ kind: 'file', path: files[0] ?? '' })}
        />
        From the server's folder
      </label>
      <label>
        <input
          type="radio"
          name="source"
          checked={source.kind === 'paste'}
          onChange={() => onSource({ kind: 'paste', text: '' })}
        />
        Paste DOT
      </label>
    </div>
  );
}

function SourceInput({ files, source, onSource }: Pick<Props, 'files' | 'source' | 'onSource'>) {
  return source.kind === 'file' ? (
    <label>
      File
      <select
        id="dot-path"
        value={source.path}
        onChange={(e) => onSource({ kind: 'file', path: e.target.value })}
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
        onChange={(e) => onSource({ kind: 'paste', text: e.target.value })}
      />
    </label>
  );
}

/** The start form's first group: which pipeline, and what the server makes of it. */
export function PipelineSourceFields({ info, files, source, onSource, described, describeError }: Props) {
  return (
    <fieldset>
      <legend>Pipeline</legend>
      <SourceChoice files={files} source={source} onSource={onSource} />
      {files.length === 0 && (
        <p className="muted small">
          {info?.allow_dirs
            ? 'The allowed folders hold no .dot files.'
            : 'This server has no allowed folder (--allow-dir); paste a pipeline instead.'}
        </p>
      )}
      <SourceInput files={files} source={source} onSource={onSource} />
      {described && (
        <p className="muted" id="described">
          <strong>{described.name}</strong>
          {described.goal ? ` — ${described.goal}` : ''}
          {described.errors.length > 0 && <span className="error"> · {described.errors.join(' ')}</span>}
        </p>
      )}
      {describeError && <p className="error">{describeError}</p>}
    </fieldset>
  );
}
