import { type FormEvent, useState } from 'react';
import { api } from './api.js';
import { runHref } from './use-hash-route.js';

/**
 * Fork the run from a node: a new run as if this one had just reached it, with values overridden
 * (`POST /pipelines/{id}/fork`, `{from_node, set}` → 201 `{id}`).
 */
export function ForkDialog({ runId, node, onClose }: { runId: string; node: string; onClose: () => void }) {
  const [rows, setRows] = useState<{ key: string; value: string }[]>([{ key: '', value: '' }]);
  const [error, setError] = useState('');
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const set = Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));
    try {
      const forked = await api<{ id: string }>(`/pipelines/${encodeURIComponent(runId)}/fork`, {
        method: 'POST',
        body: { from_node: node, ...(Object.keys(set).length > 0 ? { set } : {}) },
      });
      location.hash = runHref(forked.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const update = (i: number, patch: Partial<{ key: string; value: string }>): void =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <form
      className="fork stack"
      id="fork-form"
      onSubmit={submit}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <h3>
        Fork from <span className="mono">{node}</span>
      </h3>
      <p className="muted small">
        A new run starts at this node with the context it had when the node was entered; the records of the
        nodes before it are kept. Values given here override it, as{' '}
        <span className="mono">attractor fork --set</span> does.
      </p>
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are only appended
        <div className="row" key={i}>
          <input
            aria-label="key"
            placeholder="key"
            value={row.key}
            onChange={(e) => update(i, { key: e.target.value })}
          />
          <input
            aria-label="value"
            placeholder="value"
            value={row.value}
            onChange={(e) => update(i, { value: e.target.value })}
          />
        </div>
      ))}
      <div className="row">
        <button type="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
          Add a value
        </button>
        <button type="submit" className="primary" id="fork-start">
          Start the fork
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
