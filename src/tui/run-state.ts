/** What the TUI shows, derived only from the graph and the run's PipelineEvents (reduce-run-state.ts). */
export type NodeStatus = 'pending' | 'running' | 'success' | 'partial' | 'retrying' | 'failed' | 'skipped';

export type RunPhase =
  | 'starting'
  | 'running'
  | 'waiting'
  | 'pausing'
  | 'paused'
  | 'cancelled'
  | 'done'
  | 'failed';

export interface ToolCallItem {
  kind: 'tool';
  id: number;
  callId: string;
  name: string;
  args: Record<string, unknown>;
  status: 'running' | 'ok' | 'error';
  /** Output so far (streamed) or final; the pane shows only its first/last lines. */
  output: string;
  durationMs?: number;
  /** Epoch ms of the call's start event. */
  startedAt?: number;
}

/** One step of an agent's plan (ACP `plan` updates). */
export interface PlanEntry {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  priority?: string;
}

export type ActivityItem =
  | { kind: 'text'; id: number; text: string; done: boolean }
  /** The agent's reasoning (ACP `agent_thought_chunk`), shown dimmed and collapsed like a tool call. */
  | { kind: 'thought'; id: number; text: string; done: boolean }
  /** The agent's current plan: each update replaces the last and moves it to the newest place. */
  | { kind: 'plan'; id: number; entries: PlanEntry[] }
  | ToolCallItem
  | { kind: 'warning'; id: number; message: string };

export interface BranchView {
  id: string;
  status: NodeStatus;
}

export interface NodeView {
  id: string;
  label: string;
  /** Handler type: codergen, tool, wait.human, parallel, ... */
  kind: string;
  subgraph?: string;
  status: NodeStatus;
  attempt: number;
  maxAttempts: number;
  visits: number;
  startedAt?: number;
  durationMs?: number;
  costUsd: number;
  model?: string;
  /** Target of the edge taken after this node's last visit. */
  next?: string;
  /** Which routing step chose it, in words (describe-route.ts from `edge.selected`; explain-route.ts for older logs). */
  route?: string;
  /** True when `route` came from the engine's `edge.selected` rather than being inferred. */
  routeDecided?: boolean;
  notes?: string;
  failureReason?: string;
  preferredLabel?: string;
  /** The working tree's snapshot after its latest visit (`node.complete`'s `commit`). */
  commit?: string;
  /** Set on parallel nodes: their branches, filled in as they finish. */
  branches?: BranchView[];
  /** The parallel node whose branch this node ran in, when it ran in one. */
  branchOf?: string;
  activity: ActivityItem[];
}

export interface GateView {
  nodeId: string;
  text: string;
  type: 'yes_no' | 'multiple_choice' | 'freeform' | 'confirmation';
  options: Array<{ key: string; label: string; target?: string }>;
  askedAt: number;
  timeoutMs?: number;
  defaultChoice?: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  costUsd: number;
  model?: string;
}

/** One finished node visit, written once to the scrollback (Ink's <Static>). */
export interface LogEntry {
  id: number;
  nodeId: string;
  label: string;
  status: NodeStatus;
  durationMs: number;
  costUsd: number;
  detail?: string;
  branch?: string;
}

export interface RunState {
  name: string;
  goal: string;
  runId: string;
  phase: RunPhase;
  quality?: 'clean' | 'degraded' | 'failed';
  /** When the current execution started (a resume starts another) and ended. */
  startedAt?: number;
  finishedAt?: number;
  /** How long the run's earlier executions took (a resumed run): `run-elapsed.ts` adds the current one. */
  activeMs?: number;
  /** The time of the latest event that changed this state: where an execution killed without an end stopped. */
  lastEventAt?: number;
  /** Node ids in display order (order-nodes.ts). */
  order: string[];
  nodes: Record<string, NodeView>;
  /** The top-level node running now (not a branch's). */
  current?: string;
  /** The last top-level node that completed, to attach the next node.start to it as the edge taken. */
  lastCompleted?: string;
  gate?: GateView;
  usage: Usage;
  failure?: string;
  /** Why a completed run is degraded though no node failed: it ended at a dead end (`ended at a: no edge matched`). */
  endReason?: string;
  resumeAt?: string;
  /** Finished node visits, oldest first (append-only). */
  log: LogEntry[];
  /** Monotonic id source for activity items (kept in state so the reducer stays pure). */
  nextItemId: number;
}
