import { useEffect, useState } from 'react';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { api } from './api.js';
import type { NodeDetails, ServerInfo } from './api-types.js';
import { DiffView } from './DiffView.js';
import { ForkDialog } from './ForkDialog.js';
import { formatCost, formatDuration } from './format.js';
import type { NodeVisit } from './run-timeline.js';
import { nodeCost, type TranscriptEntry } from './run-transcript.js';

function Block({ title, text, id }: { title: string; text: string | null | undefined; id?: string }) {
  if (!text) return null;
  return (
    <details open id={id}>
      <summary>{title}</summary>
      <pre>{text}</pre>
    </details>
  );
}

/**
 * One node: what it was asked, what it answered, its tools' output, what it changed (a diff), its
 * status.json and its cost.
 */
export function NodePanel({
  runId,
  node,
  status,
  visits,
  events,
  transcript,
  info,
}: {
  runId: string;
  node: string;
  status: string | undefined;
  visits: readonly NodeVisit[];
  events: readonly PipelineEvent[];
  transcript: readonly TranscriptEntry[];
  info: ServerInfo | undefined;
}) {
  const [details, setDetails] = useState<NodeDetails>();
  const [error, setError] = useState('');
  const [forking, setForking] = useState(false);
  // Read again when the node's status changes: its files are written as it runs and ends.
  // biome-ignore lint/correctness/useExhaustiveDependencies: status is the reason to read again
  useEffect(() => {
    setError('');
    api<NodeDetails>(`/pipelines/${encodeURIComponent(runId)}/nodes/${encodeURIComponent(node)}`).then(
      setDetails,
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [runId, node, status]);

  const cost = nodeCost(events, node);
  const mine = visits.filter((v) => v.node === node);
  const tools = transcript.filter((t) => t.node === node && t.type === 'tool');
  const forkTitle = info?.fork
    ? `Start a new run from ${node}, keeping what ran before it`
    : 'This server cannot fork runs (it has no POST /pipelines/{id}/fork route).';
  return (
    <section className="node-panel" id="node" aria-labelledby="node-title">
      <div className="panel-head">
        <h2 id="node-title" className="mono">
          {node}
        </h2>
        <span className={`badge status-${status ?? 'pending'}`}>{status ?? 'pending'}</span>
        <button
          type="button"
          id="fork"
          disabled={!info?.fork}
          title={forkTitle}
          aria-label={`Fork from ${node}`}
          onClick={() => setForking(true)}
        >
          Fork from here
        </button>
      </div>
      {forking && <ForkDialog runId={runId} node={node} onClose={() => setForking(false)} />}
      <dl className="facts">
        <dt>Visits</dt>
        <dd>
          {mine.length === 0
            ? 'none yet'
            : mine
                .map((v) => `${formatDuration(v.durationMs)}${v.retries ? ` (${v.retries} retries)` : ''}`)
                .join(', ')}
        </dd>
        <dt>Cost</dt>
        <dd id="node-cost">
          {formatCost(cost.costUsd)}
          {cost.inputTokens + cost.outputTokens > 0
            ? ` · ${cost.inputTokens} in / ${cost.outputTokens} out tokens`
            : ''}
        </dd>
      </dl>
      {error && <p className="error">{error}</p>}
      <Block title="Prompt" text={details?.prompt} id="node-prompt" />
      <Block title="Response" text={details?.response} id="node-response" />
      {tools.length > 0 && (
        <details open>
          <summary>Tool calls ({tools.length})</summary>
          {tools.map((t, i) =>
            t.type === 'tool' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows
              <div key={i} className={t.isError ? 'tool tool-error' : 'tool'}>
                <div className="mono">{t.name}</div>
                {t.args && <pre>{t.args}</pre>}
                {t.output && <pre className="output">{t.output}</pre>}
              </div>
            ) : null,
          )}
        </details>
      )}
      <DiffView diff={details?.diff} />
      <Block title="Command output" text={details?.stdout} />
      <Block title="Command errors" text={details?.stderr} />
      <Block
        title="status.json"
        text={details?.status ? JSON.stringify(details.status, null, 2) : null}
        id="node-status"
      />
      {details && !details.prompt && !details.response && !details.status && (
        <p className="muted">This node has not written anything yet.</p>
      )}
    </section>
  );
}
