import { useEffect, useRef, useState } from 'react';
import { runActionRefusal } from '../shared/run-actions.js';
import type { RunStatus } from '../shared/run-view-json.js';
import { api } from './api.js';
import type { Question, RunInfo, ServerInfo } from './api-types.js';
import { GatePanel } from './GatePanel.js';
import { GraphView } from './GraphView.js';
import { NodePanel } from './NodePanel.js';
import { RunActions } from './RunActions.js';
import { RunFacts } from './RunFacts.js';
import { RunTitle } from './RunTitle.js';
import { Timeline } from './Timeline.js';
import { TranscriptView } from './TranscriptView.js';
import { UndeliveredNotifications } from './UndeliveredNotifications.js';
import { usePoll } from './use-poll.js';
import { useRunEvents } from './use-run-events.js';
import { useRunFolds } from './use-run-folds.js';

/** Ended: nothing changes it but a resume, which this page starts itself (so it polls no more). */
const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Ticks once a second while something on the page moves. */
function useNow(moving: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [moving]);
  return now;
}

/**
 * One run: its graph coloured live, gate, node panel, timeline, transcript, and what can be done to it.
 * Opened at a node (`atNode`, a notification's gate link), that node's panel is open and its gate, while
 * one waits, has the keyboard's focus.
 */
export function RunPage({
  id,
  atNode,
  info,
}: {
  id: string;
  atNode?: string | undefined;
  info: ServerInfo | undefined;
}) {
  // A resumed run's stream starts over (the one before ended with the run's pause).
  const [attempt, setAttempt] = useState(0);
  const { events, done } = useRunEvents(id, attempt);
  const [polling, setPolling] = useState(true);
  const path = `/pipelines/${encodeURIComponent(id)}`;
  const run = usePoll(() => api<RunInfo>(path), 2000, [id, attempt], polling);
  const questions = usePoll(() => api<Question[]>(`${path}/questions`), 2000, [id, attempt], polling);
  const [selected, setSelected] = useState<string | undefined>(atNode);
  useEffect(() => {
    if (atNode !== undefined) setSelected(atNode);
  }, [atNode]);
  const [said, setSaid] = useState('');
  const statusLine = useRef<HTMLParagraphElement>(null);
  const nodeSection = useRef<HTMLElement>(null);

  const info0 = run.data;
  const status: RunStatus = (info0?.status ?? done ?? 'queued') as RunStatus;
  const ended = ENDED.has(status) && done !== undefined;
  useEffect(() => setPolling(!ended), [ended]);
  const now = useNow(!ended);

  const { statuses, visits, visitCounts, taken, transcript } = useRunFolds(events, status);

  // A gate opening or closing, or the run ending, shows at once rather than at the next poll.
  const gateEvents = events.filter((e) => e.kind.startsWith('interview.')).length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh on these changes only
  useEffect(() => {
    questions.refresh();
    run.refresh();
  }, [gateEvents, done]);

  // A new gate is said in the status line (a live region), once per question.
  const announced = useRef(new Set<string>());
  useEffect(() => {
    const fresh = (questions.data ?? []).filter((q) => !announced.current.has(q.id));
    for (const q of fresh) announced.current.add(q.id);
    const first = fresh[0];
    if (first) setSaid(`${first.stage} asks: ${first.text}`);
  }, [questions.data]);
  useGoneGate(atNode, questions.data, setSaid);

  const select = (node: string): void => {
    setSelected(node);
    // The panel comes into view (beside the graph it already is; below it on a narrow screen).
    requestAnimationFrame(() => nodeSection.current?.scrollIntoView({ block: 'nearest' }));
  };
  const answered = (question: Question, label: string): void => {
    setSaid(`Answered “${label}” at ${question.stage}.`);
    questions.refresh();
    requestAnimationFrame(() => statusLine.current?.focus());
  };
  const resumed = (): void => {
    setAttempt((n) => n + 1);
    setPolling(true);
  };
  const current = info0?.current_node;
  const skipToNode = (): void => nodeSection.current?.focus();
  const forkRefusal = runActionRefusal('fork', { status, checkpointed: info0?.checkpointed ?? false });

  return (
    <main className="page wide run-page">
      <div className="page-head">
        <RunTitle id={id} run={info0} />
        <RunActions id={id} status={status} run={info0} onResumed={resumed} onChanged={run.refresh} />
      </div>
      <RunFacts id={id} run={info0} now={now} />
      <UndeliveredNotifications events={events} />
      <p className="status-line" id="run-announce" role="status" tabIndex={-1} ref={statusLine}>
        {said}
      </p>
      {(questions.data ?? []).map((q, i) => (
        <GatePanel
          key={q.id}
          runId={id}
          question={q}
          takesKeys={i === 0}
          focused={q.stage === atNode}
          onAnswered={(label) => answered(q, label)}
        />
      ))}
      <div className="run-grid">
        <section className="card graph-card" aria-labelledby="graph-title">
          <div className="card-head">
            <h2 id="graph-title">Graph</h2>
            <button type="button" className="skip-link" id="skip-graph" onClick={skipToNode}>
              Skip past the graph
            </button>
          </div>
          <GraphView
            runId={id}
            statuses={statuses}
            visits={visitCounts}
            taken={taken}
            current={current}
            selected={selected}
            onSelect={select}
          />
        </section>
        <div className="side">
          <section className="card" id="node-section" aria-label="Node" tabIndex={-1} ref={nodeSection}>
            {selected ? (
              <NodePanel
                key={selected}
                runId={id}
                node={selected}
                status={statuses[selected]}
                visits={visits}
                events={events}
                forkRefusal={
                  forkRefusal?.reason ?? (info?.fork ? undefined : 'this server cannot fork runs.')
                }
              />
            ) : (
              <p className="muted" id="node">
                Choose a node in the graph or the timeline to see its prompt, response and cost.
              </p>
            )}
          </section>
          <section className="card" aria-labelledby="timeline-title">
            <h2 id="timeline-title">Timeline</h2>
            <Timeline visits={visits} now={now} onSelect={select} />
          </section>
        </div>
        <section className="card transcript-card" aria-labelledby="transcript-title">
          <h2 id="transcript-title">Agent transcript</h2>
          <TranscriptView entries={transcript} live={!done} />
        </section>
      </div>
    </main>
  );
}

/**
 * A gate's link opened after the gate closed (answered by someone else, timed out, the run moved on): said
 * once in the status line, rather than a page that looks as if the link were broken.
 */
function useGoneGate(
  atNode: string | undefined,
  questions: readonly Question[] | undefined,
  say: (text: string) => void,
): void {
  const told = useRef<string>(undefined);
  useEffect(() => {
    if (atNode === undefined || questions === undefined || told.current === atNode) return;
    told.current = atNode;
    if (!questions.some((q) => q.stage === atNode)) say(`No question waits at ${atNode} now.`);
  }, [atNode, questions, say]);
}
