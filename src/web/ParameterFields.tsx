import type { PipelineDescription } from './api-types.js';

interface Props {
  vars: PipelineDescription['vars'];
  values: Record<string, string>;
  onValues: (values: Record<string, string>) => void;
}

/** One field per parameter the pipeline declares; one without a default is required. */
export function ParameterFields({ vars, values, onValues }: Props) {
  if (vars.length === 0) return null;
  return (
    <fieldset id="vars">
      <legend>Parameters</legend>
      {vars.map((v) => (
        <label key={v.name}>
          <span className="mono">{v.name}</span>
          <input
            name={`var-${v.name}`}
            value={values[v.name] ?? v.default ?? ''}
            required={v.default === undefined}
            onChange={(e) => onValues({ ...values, [v.name]: e.target.value })}
          />
        </label>
      ))}
    </fieldset>
  );
}
