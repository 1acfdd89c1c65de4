import { useEffect, useState } from 'react';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { api } from './api.js';
import type { NodeDetails } from './api-types.js';
import { DiffView } from './DiffView.js';
import { ForkDialog } from './ForkDialog.js';
import { formatCost, formatDuration, NODE_STATUS_LABEL } from './format.js';
import { nodeVisitRecords, type VisitRecord } from './node-visit-records.js';
import type { NodeVisit } from './run-timeline.js';
import type { TranscriptEntry } from './run-transcript.js';
import { ScrollPre } from './ScrollPre.js';

function Block({ title, text, id }: { title: string; text: string | null | undefined; id?: string }) {
  if (!text) return null;
  return (
    <details open id={id}>
      <summary>{title}</summary>
      <ScrollPre>{text}</ScrollPre>
    </details>
  );
}

function ToolCalls({ entries }: { entries: readonly TranscriptEntry[] }) {
  const tools = entries.filter((t) => t.type === 'tool');
  if (tools.length === 0) return null;
  return (
    <details open>
      <summary>Tool calls ({tools.length})</summary>
      {tools.map((t) => (
        <div key={t.id} className={t.isError ? 'tool tool-error' : 'tool'}>
          <div className="mono">{t.name}</div>
          {t.args && <ScrollPre>{t.args}</ScrollPre>}
          {t.output && <ScrollPre className="output">{t.output}</ScrollPre>}
        </div>
      ))}
    </details>
  );
}

const costText = (cost: VisitRecord['cost']): string =>
  `${formatCost(cost.costUsd)}${
    cost.inputTokens + cost.outputTokens > 0
      ? ` · ${cost.inputTokens} in / ${cost.outputTokens} out tokens`
      : ''
  }`;

/** One visit, from the events: how it went, what the agent was asked and said, its tool calls, its cost. */
function Visit({
  visit,
  record,
  open,
}: {
  visit: NodeVisit;
  record: VisitRecord | undefined;
  open: boolean;
}) {
  const words = (record?.entries ?? []).flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('\n');
  return (
    <details className="visit" open={open} data-visit={visit.visit}>
      <summary>
        Visit {visit.visit} · {visit.status} · {formatDuration(visit.durationMs)}
        {visit.retries ? ` · ${visit.retries} retries` : ''} · {formatCost(record?.cost.costUsd)}
      </summary>
      <Block title="Prompt given to the agent" text={record?.prompts.join('\n\n')} />
      <Block title="What the agent said" text={words} />
      {record && <ToolCalls entries={record.entries} />}
      {record && record.cost.inputTokens + record.cost.outputTokens > 0 && (
        <p className="small muted">Cost: {costText(record.cost)}</p>
      )}
    </details>
  );
}

/**
 * One node: each visit (from the events), then the files of its latest (prompt, response, command
 * output, what it changed as a diff, status.json) and its total cost; Fork when the run allows it.
 */
export function NodePanel({
  runId,
  node,
  status,
  visits,
  events,
  forkRefusal,
}: {
  runId: string;
  node: string;
  status: string | undefined;
  visits: readonly NodeVisit[];
  events: readonly PipelineEvent[];
  /** Why this run cannot be forked now, when it cannot. */
  forkRefusal: string | undefined;
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

  const mine = visits.filter((v) => v.node === node);
  const records = nodeVisitRecords(events, node);
  const total = records.reduce(
    (sum, r) => ({
      costUsd: sum.costUsd + r.cost.costUsd,
      inputTokens: sum.inputTokens + r.cost.inputTokens,
      outputTokens: sum.outputTokens + r.cost.outputTokens,
    }),
    { costUsd: 0, inputTokens: 0, outputTokens: 0 },
  );
  const refusal = forkRefusal ?? (mine.length === 0 ? `the run never reached ${node}.` : undefined);
  const shown = status ?? 'pending';
  return (
    <section className="node-panel" id="node" aria-labelledby="node-title">
      <div className="panel-head">
        <h2 id="node-title" className="mono">
          {node}
        </h2>
        <span className={`badge status-${shown}`}>{NODE_STATUS_LABEL[shown] ?? shown}</span>
        <button
          type="button"
          id="fork"
          disabled={refusal !== undefined}
          title={
            refusal ? `Cannot fork: ${refusal}` : `Start a new run from ${node}, keeping what ran before it`
          }
          onClick={() => setForking(true)}
        >
          Fork from {node}
        </button>
      </div>
      {forking && <ForkDialog runId={runId} node={node} onClose={() => setForking(false)} />}
      <dl className="facts">
        <dt>Visits</dt>
        <dd>{mine.length === 0 ? 'none yet' : mine.length}</dd>
        <dt>Cost</dt>
        <dd id="node-cost">{costText(total)}</dd>
      </dl>
      {error && <p className="error">{error}</p>}
      {mine.map((v, i) => (
        <Visit key={v.visit} visit={v} record={records[i]} open={i === mine.length - 1} />
      ))}
      <h3>{mine.length > 1 ? 'Files of the latest visit' : 'Files'}</h3>
      <Block title="Prompt" text={details?.prompt} id="node-prompt" />
      <Block title="Response" text={details?.response} id="node-response" />
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
