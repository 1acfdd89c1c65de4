import type { ClientContext, McpServer, PromptResponse, StopReason } from '@agentclientprotocol/sdk';
import { ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { definedFields } from '../../shared/defined-fields.js';
import type { SandboxSpec } from '../../shared/sandbox/sandbox-policy.js';
import type { Interviewer } from '../interviewers/interviewer.js';
import { AgentProcess } from './agent-process.js';
import { AgentTerminals } from './agent-terminals.js';
import type { PermissionPolicy } from './answer-permission.js';
import { createClientApp } from './create-client-app.js';
import { promptUsageEvent } from './prompt-usage-event.js';
import type { ProcessRecorder } from './record-process-group.js';
import { type EmitAgentEvent, SessionUpdateEvents } from './session-update-events.js';

export interface AgentSessionOptions {
  /** `agent` attribute value, for messages. */
  agentName: string;
  command: string;
  nodeId: string;
  /** The run's working directory: the agent's cwd and session cwd. */
  cwd: string;
  stageDir: string;
  /** The prompt text; `resumed` says whether the session continues an earlier visit's (it has the history). */
  prompt(resumed: boolean): string;
  /** The full environment the agent itself runs with (it needs its own credentials). */
  agentEnv: Record<string, string>;
  /** The filtered environment of commands the agent runs through `terminal/create`. */
  terminalEnv: Record<string, string>;
  mcpServers: McpServer[];
  policy: PermissionPolicy;
  interviewer?: Interviewer;
  /** A session of an earlier visit on the same thread, to continue with `session/load`. */
  resumeSessionId?: string;
  initTimeoutMs: number;
  cancelGraceMs: number;
  /** The run's process ledger: the agent's group and its terminals' are recorded there. */
  processes?: ProcessRecorder;
  /** The terminals' sandbox (decision 0341); the agent's own process runs outside it. */
  sandbox?: SandboxSpec;
  signal: AbortSignal;
  emit: EmitAgentEvent;
}

export interface AgentSessionResult {
  /** The agent's final message (its message chunks of this turn). */
  message: string;
  stopReason?: StopReason;
  sessionId?: string;
  /** True when `resumeSessionId` was continued with `session/load`. */
  resumed: boolean;
  /** Why the visit failed (crash, timeout, protocol error, cancellation); undefined when the turn ended. */
  failure?: string;
  cancelled: boolean;
}

/** Rejected with this when the agent process ends before answering. */
class AgentExited extends Error {}

const MAX_STDERR_IN_MESSAGE = 1500;
/** How long a failed request waits to learn whether the agent died (its pipes close first). */
const EXIT_WAIT_MS = 1000;

/** What the client side of a visit keeps about its session while the agent talks to it. */
interface SessionState {
  /** The session whose updates are this visit's events (undefined until one is open). */
  id?: string;
  /** While `session/load` replays history, its updates belong to earlier visits: not this node's events. */
  replaying: boolean;
  /** The first error one of our request handlers met (the agent may give up because of it). */
  handlerError?: string;
}

/** One visit's agent process, its terminals and the ACP connection to it. */
interface AgentLink {
  agent: AgentProcess;
  terminals: AgentTerminals;
  updates: SessionUpdateEvents;
  connection: { agent: ClientContext; close(): void };
  /** Rejects with `AgentExited` when the agent process ends. */
  exited: Promise<never>;
  state: SessionState;
}

/** Where a visit's exchange with the agent had got to (named in its failure). */
type Phase = 'initialize' | 'session/load' | 'session/new' | 'session/prompt';

/**
 * One node visit through an external ACP agent: spawn it (own process group), `initialize` advertising
 * file-system and terminal capabilities, `session/load` (when continuing a thread and the agent can) or
 * `session/new`, one `session/prompt`, then stop the agent and everything it started. Abort sends
 * `session/cancel` and kills the group if the turn does not end within the grace period. Never throws:
 * failures come back in `failure`, with the agent's stderr tail.
 */
export async function runAgentSession(options: AgentSessionOptions): Promise<AgentSessionResult> {
  const link = connectAgent(options);
  const result: AgentSessionResult = { message: '', resumed: false, cancelled: false };
  const progress: { phase: Phase } = { phase: 'initialize' };
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  if (options.signal.aborted) abort.abort();
  try {
    const sessionId = await openSession(link, options, result, progress, abort.signal);
    progress.phase = 'session/prompt';
    await promptTurn(link, options, result, sessionId, abort.signal);
  } catch (caught) {
    await failWith(link, options, result, progress.phase, caught);
  } finally {
    options.signal.removeEventListener('abort', onAbort);
    // Why the agent gave up is often ours (no one to ask): say so with its failure.
    if (result.failure && link.state.handlerError) result.failure += ` (${link.state.handlerError})`;
    result.message = link.updates.message;
    await disconnectAgent(link, options.cancelGraceMs);
  }
  return result;
}

/** Spawns the agent and speaks ACP to it over its stdio, our request handlers attached. */
function connectAgent(options: AgentSessionOptions): AgentLink {
  const roots = [options.cwd, options.stageDir];
  const ledger = options.processes ? { ledger: options.processes, node: options.nodeId } : {};
  const agent = new AgentProcess({
    command: options.command,
    cwd: options.cwd,
    env: options.agentEnv,
    ...ledger,
  });
  const terminals = new AgentTerminals({
    roots,
    env: options.terminalEnv,
    killGraceMs: options.cancelGraceMs,
    ...ledger,
    ...definedFields({ sandbox: options.sandbox }),
  });
  const updates = new SessionUpdateEvents();
  const state: SessionState = { replaying: false };
  const app = createClientApp({
    roots,
    terminals,
    policy: options.policy,
    ...definedFields({ interviewer: options.interviewer }),
    nodeId: options.nodeId,
    signal: options.signal,
    onHandlerError(error) {
      state.handlerError ??= error instanceof Error ? error.message : String(error);
    },
    onUpdate(id, update) {
      if (state.replaying || (state.id !== undefined && id !== state.id)) return;
      for (const event of updates.map(update)) options.emit(event.kind, event.data);
    },
  });
  const { output, input } = agent.streams();
  const connection = app.connect(ndJsonStream(output, input));
  const exited = agent.exited.then((exit) => {
    throw new AgentExited(exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`);
  });
  exited.catch(() => {});
  return { agent, terminals, updates, connection, exited, state };
}

/** `initialize`, then `session/load` of the thread's earlier session when the agent can, else `session/new`. */
async function openSession(
  link: AgentLink,
  options: AgentSessionOptions,
  result: AgentSessionResult,
  progress: { phase: Phase },
  signal: AbortSignal,
): Promise<string> {
  const peer = link.connection.agent;
  const race = <T>(request: Promise<T>): Promise<T> =>
    Promise.race([request, link.exited, abortPromise(signal)]);
  const initTimeout = new AbortController();
  const initTimer = setTimeout(() => initTimeout.abort(new Error('init-timeout')), options.initTimeoutMs);
  const init = await Promise.race([
    race(
      peer.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: 'attractor', version: '1' },
      }),
    ),
    abortPromise(initTimeout.signal),
  ]).finally(() => clearTimeout(initTimer));
  if (options.resumeSessionId && init.agentCapabilities?.loadSession) {
    progress.phase = 'session/load';
    link.state.replaying = true;
    try {
      const { cwd, mcpServers } = options;
      await race(peer.request('session/load', { sessionId: options.resumeSessionId, cwd, mcpServers }));
      link.state.id = options.resumeSessionId;
      result.resumed = true;
    } catch (error) {
      // An agent that cannot load the session starts a new one; its death or our abort end the visit.
      if (error instanceof AgentExited || signal.aborted) throw error;
    } finally {
      link.state.replaying = false;
    }
  }
  if (link.state.id === undefined) {
    progress.phase = 'session/new';
    const created = await race(
      peer.request('session/new', { cwd: options.cwd, mcpServers: options.mcpServers }),
    );
    link.state.id = created.sessionId;
  }
  result.sessionId = link.state.id;
  return link.state.id;
}

/** One `session/prompt`; an abort asks the agent to cancel and waits the grace period for its answer. */
async function promptTurn(
  link: AgentLink,
  options: AgentSessionOptions,
  result: AgentSessionResult,
  sessionId: string,
  signal: AbortSignal,
): Promise<void> {
  const peer = link.connection.agent;
  const prompting = peer.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: options.prompt(result.resumed) }],
  });
  prompting.catch(() => {});
  const response: PromptResponse = await Promise.race([
    prompting,
    link.exited,
    abortPromise(signal).catch(async (reason) => {
      // Ask the agent to stop; it answers the prompt with `cancelled` if it complies in time.
      await peer.notify('session/cancel', { sessionId }).catch(() => {});
      const graceful = await Promise.race([prompting, link.exited, sleep(options.cancelGraceMs)]).catch(
        () => undefined,
      );
      if (graceful) return graceful;
      throw reason;
    }),
  ]);
  result.stopReason = response.stopReason;
  const usage = promptUsageEvent(response);
  if (usage) options.emit(usage.kind, usage.data);
  if (response.stopReason === 'cancelled' || options.signal.aborted) {
    result.cancelled = true;
    result.failure = `agent "${options.agentName}" was cancelled`;
  } else if (response.stopReason !== 'end_turn') {
    result.failure = `agent "${options.agentName}" stopped its turn: ${response.stopReason}`;
  }
}

/** Says why the visit failed: cancelled, no answer to `initialize`, the agent's exit, or the request's error. */
async function failWith(
  link: AgentLink,
  options: AgentSessionOptions,
  result: AgentSessionResult,
  phase: Phase,
  caught: unknown,
): Promise<void> {
  const describe = (what: string): string => {
    const tail = link.agent.stderrTail();
    const clipped = tail.length > MAX_STDERR_IN_MESSAGE ? `…${tail.slice(-MAX_STDERR_IN_MESSAGE)}` : tail;
    return `agent "${options.agentName}" (${options.command}) ${what}${clipped ? `; its stderr ends with:\n${clipped}` : ''}`;
  };
  if (options.signal.aborted) {
    result.cancelled = true;
    result.failure = `agent "${options.agentName}" was cancelled during ${phase}`;
  } else if (caught instanceof Error && caught.message === 'init-timeout') {
    result.failure = describe(`did not answer initialize within ${options.initTimeoutMs} ms`);
  } else {
    // A dying agent closes its pipes a moment before its exit is reported: name the exit, not the pipe.
    const error = caught instanceof AgentExited ? caught : await exitedSoon(link.agent, caught);
    result.failure =
      error instanceof AgentExited
        ? describe(`${error.message} during ${phase}`)
        : describe(`failed during ${phase}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The visit is over: its terminals, the connection, the agent and whatever it started go. */
async function disconnectAgent(link: AgentLink, cancelGraceMs: number): Promise<void> {
  await link.terminals.releaseAll();
  link.connection.close();
  link.agent.child.stdin.end();
  // A clean agent exits on EOF first.
  await Promise.race([link.agent.exited, sleep(Math.min(500, cancelGraceMs))]);
  await link.agent.kill(cancelGraceMs);
}

async function exitedSoon(agent: AgentProcess, error: unknown): Promise<unknown> {
  const exit = await Promise.race([agent.exited, sleep(EXIT_WAIT_MS)]);
  if (!exit || agent.exit === undefined) return error;
  return new AgentExited(exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`);
}

function sleep(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}

/** Rejects with the signal's reason once it aborts; never settles otherwise. */
function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
