import { useState } from 'react';
import { type RunAction, runActionRefusal } from '../shared/run-actions.js';
import type { RunStatus } from '../shared/run-view-json.js';
import { api } from './api.js';
import type { RunInfo } from './api-types.js';
import { StatusBadge } from './StatusBadge.js';

/**
 * The run's status and its Cancel and Resume, each offered exactly when the server accepts it (the one
 * rule, `runActionRefusal`); a refused one says why in its description.
 */
export function RunActions({
  id,
  status,
  run,
  onResumed,
  onChanged,
}: {
  id: string;
  status: RunStatus;
  run: RunInfo | undefined;
  onResumed: () => void;
  onChanged: () => void;
}) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const facts = { status, checkpointed: run?.checkpointed ?? false };
  const act = async (action: Exclude<RunAction, 'fork'>): Promise<void> => {
    setError('');
    setBusy(true);
    try {
      await api(`/pipelines/${encodeURIComponent(id)}/${action}`, { method: 'POST' });
      if (action === 'resume') onResumed();
      onChanged();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const button = (action: Exclude<RunAction, 'fork'>, label: string) => {
    const refusal = run ? runActionRefusal(action, facts) : { reason: 'loading the run…' };
    return (
      <button
        type="button"
        id={action}
        disabled={busy || refusal !== undefined}
        title={refusal ? `Cannot ${action}: ${refusal.reason}` : undefined}
        onClick={() => void act(action)}
      >
        {label}
      </button>
    );
  };
  return (
    <div className="actions">
      <span id="run-status">
        <StatusBadge status={status} />
      </span>
      {button('cancel', 'Cancel')}
      {button('resume', 'Resume')}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
