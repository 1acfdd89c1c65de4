import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { RunStatus } from '../shared/run-view-json.js';

/** One visit of a top-level node: when it started, how long it took, how it ended, its retries. */
export interface NodeVisit {
  node: string;
  /** 1-based count of this node's visits (a loop visits a node again). */
  visit: number;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  /**
   * `running` until it ends, then the outcome's status; `waiting` at an open gate; `cancelled` or
   * `interrupted` when the run stopped while it was under way.
   */
  status: string;
  /** Attempts beyond the first within this visit. */
  retries: number;
  waitedForPerson: boolean;
  /** While a gate waits for its answer: since when (its clock does not run on). */
  waitingSince?: string;
  /** Who answered its gate (`token`, `anonymous`, an OS user), when the answer says. */
  answeredBy?: string;
}

const nested = (event: PipelineEvent): boolean =>
  event.data['branch'] !== undefined || event.data['parent'] !== undefined;

/** The run stopped: a cancel (a worker releasing a run at a gate cancels too), a pause, an error. */
const STOPS: ReadonlySet<string> = new Set([
  'pipeline.cancelled',
  'pipeline.paused',
  'pipeline.error',
  'pipeline.finalize',
]);

/** A visit at a gate when its run stopped: waiting still, or stopped, as the run's status says. */
const HELD = 'held';

function closeAt(visit: NodeVisit, at: string, status: string): void {
  visit.status = status;
  visit.endedAt = at;
  visit.durationMs = Math.max(0, Date.parse(at) - Date.parse(visit.startedAt));
}

function stopOpenVisits(open: Map<string, NodeVisit>, event: PipelineEvent): void {
  const cancelled =
    event.kind === 'pipeline.cancelled' ||
    (event.kind === 'pipeline.finalize' && event.data['status'] === 'cancelled');
  for (const visit of open.values()) {
    if (visit.waitingSince !== undefined) {
      visit.status = HELD;
      visit.endedAt = event.timestamp;
    } else closeAt(visit, event.timestamp, cancelled ? 'cancelled' : 'interrupted');
  }
  for (const [node, visit] of open) if (visit.status !== HELD) open.delete(node);
}

/** The folding state: the visits in order, the open one per node, each node's count. */
interface Fold {
  visits: NodeVisit[];
  open: Map<string, NodeVisit>;
  counts: Map<string, number>;
}

function startVisit(fold: Fold, node: string, at: string): void {
  const current = fold.open.get(node);
  // A retry is the same visit; a gate's visit continues when its released run is taken up again.
  if (current?.status === 'retrying' || current?.status === HELD) {
    current.status = current.waitingSince !== undefined ? 'waiting' : 'running';
    delete current.endedAt;
    return;
  }
  const visit = (fold.counts.get(node) ?? 0) + 1;
  fold.counts.set(node, visit);
  const entry: NodeVisit = {
    node,
    visit,
    startedAt: at,
    status: 'running',
    retries: 0,
    waitedForPerson: false,
  };
  fold.visits.push(entry);
  fold.open.set(node, entry);
}

function foldEvent(fold: Fold, event: PipelineEvent): void {
  if (nested(event)) return;
  if (STOPS.has(event.kind)) {
    stopOpenVisits(fold.open, event);
    return;
  }
  const node = event.node_id;
  if (!node) return;
  const current = fold.open.get(node);
  switch (event.kind) {
    case 'node.start':
      startVisit(fold, node, event.timestamp);
      return;
    case 'node.retry':
      if (current) {
        current.retries += 1;
        current.status = 'retrying';
      }
      return;
    case 'interview.start':
      if (current) {
        current.waitedForPerson = true;
        current.waitingSince = event.timestamp;
        current.status = 'waiting';
      }
      return;
    case 'interview.complete':
    case 'interview.timeout': {
      if (!current) return;
      delete current.waitingSince;
      current.status = 'running';
      // Not in every server's events yet: read when there.
      const data: Readonly<Record<string, unknown>> = event.data;
      const by = data['answered_by'];
      if (typeof by === 'string') current.answeredBy = by;
      return;
    }
    case 'node.complete':
      if (!current) return;
      delete current.waitingSince;
      closeAt(
        current,
        event.timestamp,
        typeof event.data['status'] === 'string' ? event.data['status'] : 'success',
      );
      fold.open.delete(node);
  }
}

const MOVING: ReadonlySet<RunStatus> = new Set(['queued', 'running', 'waiting']);

/**
 * Visits still open, made as true as the run's status: while it moves they run on (a gate's waits);
 * once it stopped — a crash leaves no event saying so — they stop at the run's last event.
 */
function settle(fold: Fold, run: RunStatus | undefined, lastAt: string): void {
  const moving = run === undefined || MOVING.has(run);
  for (const visit of fold.open.values()) {
    if (moving) {
      if (visit.status === HELD) {
        visit.status = 'waiting';
        delete visit.endedAt;
      }
      continue;
    }
    const at = visit.endedAt ?? lastAt;
    delete visit.waitingSince;
    closeAt(visit, at, run === 'cancelled' ? 'cancelled' : 'interrupted');
  }
}

/**
 * The node visits of a run, in the order they started, from its events and (when known) its status. A
 * retry is the same visit (`node.retry` then another `node.start`); a node entered again after others is
 * a new visit. Branch and child-pipeline events are not top-level visits.
 */
export function buildTimeline(events: readonly PipelineEvent[], run?: RunStatus): NodeVisit[] {
  const fold: Fold = { visits: [], open: new Map(), counts: new Map() };
  for (const event of events) foldEvent(fold, event);
  settle(fold, run, events.at(-1)?.timestamp ?? new Date(0).toISOString());
  return fold.visits;
}
