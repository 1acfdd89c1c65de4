import { useEffect, useMemo, useState } from 'react';
import { applyNodeStatus, type NodeStatus } from '../server/node-statuses.js';
import { api } from './api.js';
import type { Question, RunInfo, ServerInfo } from './api-types.js';
import { formatCost, formatDuration, formatStarted, runDurationMs } from './format.js';
import { GatePanel } from './GatePanel.js';
import { GraphView } from './GraphView.js';
import { NodePanel } from './NodePanel.js';
import { buildTimeline } from './run-timeline.js';
import { buildTranscript } from './run-transcript.js';
import { StatusBadge } from './StatusBadge.js';
import { Timeline } from './Timeline.js';
import { TranscriptView } from './TranscriptView.js';
import { runHref } from './use-hash-route.js';
import { usePoll } from './use-poll.js';
import { useRunEvents } from './use-run-events.js';

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** One run: its graph coloured live, gate, timeline, node panel, transcript, and what can be done to it. */
export function RunPage({ id, info }: { id: string; info: ServerInfo | undefined }) {
  // A resumed run's stream starts over (the one before ended with the run's pause).
  const [attempt, setAttempt] = useState(0);
  const { events, done } = useRunEvents(id, attempt);
  const run = usePoll(() => api<RunInfo>(`/pipelines/${encodeURIComponent(id)}`), 2000, [id]);
  const questions = usePoll(() => api<Question[]>(`/pipelines/${encodeURIComponent(id)}/questions`), 2000, [
    id,
  ]);
  const [selected, setSelected] = useState<string>();
  const [actionError, setActionError] = useState('');
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const statuses = useMemo(() => {
    const map = new Map<string, NodeStatus>();
    for (const e of events) applyNodeStatus(map, e);
    return Object.fromEntries(map);
  }, [events]);
  const visits = useMemo(() => buildTimeline(events), [events]);
  const transcript = useMemo(() => buildTranscript(events), [events]);

  // A gate opening or closing, or the run ending, shows at once rather than at the next poll.
  const gateEvents = events.filter((e) => e.kind.startsWith('interview.')).length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh on these changes only
  useEffect(() => {
    questions.refresh();
    run.refresh();
  }, [gateEvents, done]);

  const info0 = run.data;
  const forkedFrom = useMemo(() => {
    for (const e of events) if (e.kind === 'pipeline.resume' && e.data.forked_from) return e.data.forked_from;
    return undefined;
  }, [events]);
  const status = info0?.status ?? done ?? 'queued';
  const act = async (action: 'cancel' | 'resume'): Promise<void> => {
    setActionError('');
    try {
      await api(`/pipelines/${encodeURIComponent(id)}/${action}`, { method: 'POST' });
      if (action === 'resume') setAttempt((n) => n + 1);
      run.refresh();
    } catch (e) {
      setActionError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <main className="page wide">
      <div className="page-head">
        <div>
          <a href="#/" className="muted small">
            ← Runs
          </a>
          <h1 id="title">{info0?.name ?? id}</h1>
          {info0?.goal && <p className="muted">{info0.goal}</p>}
          {forkedFrom && (
            <p className="muted small" id="forked-from">
              Forked from <a href={runHref(forkedFrom.run_id)}>{forkedFrom.run_id}</a> at{' '}
              <span className="mono">{forkedFrom.node}</span>: the nodes before it are that run's.
            </p>
          )}
        </div>
        <div className="actions">
          <span id="run-status">
            <StatusBadge status={status} />
          </span>
          <button type="button" id="cancel" disabled={ENDED.has(status)} onClick={() => void act('cancel')}>
            Cancel
          </button>
          <button
            type="button"
            id="resume"
            disabled={status !== 'paused' && status !== 'interrupted'}
            onClick={() => void act('resume')}
          >
            Resume
          </button>
        </div>
      </div>
      <dl className="facts inline" id="run-facts">
        <dt>Started</dt>
        <dd>{formatStarted(info0?.started_at ?? info0?.created_at, now)}</dd>
        <dt>Duration</dt>
        <dd>{info0 ? formatDuration(runDurationMs(info0, now)) : '—'}</dd>
        <dt>Cost</dt>
        <dd id="run-cost">{formatCost(info0?.cost_usd)}</dd>
        <dt>Node</dt>
        <dd className="mono">{info0?.current_node ?? '—'}</dd>
        {info0?.quality && (
          <>
            <dt>Quality</dt>
            <dd>{info0.quality}</dd>
          </>
        )}
        {info0?.dry_run && (
          <>
            <dt>Mode</dt>
            <dd>dry run</dd>
          </>
        )}
      </dl>
      {info0?.failure && <p className="error">{info0.failure.reason}</p>}
      {actionError && (
        <p className="error" role="alert">
          {actionError}
        </p>
      )}
      {(questions.data ?? []).map((q) => (
        <GatePanel key={q.id} runId={id} question={q} onAnswered={questions.refresh} />
      ))}
      <div className="run-grid">
        <section className="card" aria-label="Graph">
          <GraphView runId={id} statuses={statuses} selected={selected} onSelect={setSelected} />
        </section>
        <section className="card" aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <Timeline visits={visits} now={now} onSelect={setSelected} />
        </section>
        <section className="card" aria-label="Node">
          {selected ? (
            <NodePanel
              key={selected}
              runId={id}
              node={selected}
              status={statuses[selected]}
              visits={visits}
              events={events}
              transcript={transcript}
              info={info}
            />
          ) : (
            <p className="muted" id="node">
              Choose a node in the graph or the timeline to see its prompt, response and cost.
            </p>
          )}
        </section>
        <section className="card" aria-labelledby="transcript-title">
          <h2 id="transcript-title">Agent transcript</h2>
          <TranscriptView entries={transcript} live={!done} />
        </section>
      </div>
    </main>
  );
}
