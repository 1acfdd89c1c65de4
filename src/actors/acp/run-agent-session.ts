import type { ClientContext, McpServer, PromptResponse, StopReason } from '@agentclientprotocol/sdk';
import { ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
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

/**
 * One node visit through an external ACP agent: spawn it (own process group), `initialize` advertising
 * file-system and terminal capabilities, `session/load` (when continuing a thread and the agent can) or
 * `session/new`, one `session/prompt`, then stop the agent and everything it started. Abort sends
 * `session/cancel` and kills the group if the turn does not end within the grace period. Never throws:
 * failures come back in `failure`, with the agent's stderr tail.
 */
export async function runAgentSession(options: AgentSessionOptions): Promise<AgentSessionResult> {
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
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  const updates = new SessionUpdateEvents();
  let sessionId: string | undefined;
  // While `session/load` replays history, its updates belong to earlier visits: not this node's events.
  let replaying = false;
  let handlerError: string | undefined;
  const app = createClientApp({
    roots,
    terminals,
    policy: options.policy,
    ...(options.interviewer ? { interviewer: options.interviewer } : {}),
    nodeId: options.nodeId,
    signal: options.signal,
    onHandlerError(error) {
      handlerError ??= error instanceof Error ? error.message : String(error);
    },
    onUpdate(id, update) {
      if (replaying || (sessionId !== undefined && id !== sessionId)) return;
      for (const event of updates.map(update)) options.emit(event.kind, event.data);
    },
  });
  const { output, input } = agent.streams();
  const connection = app.connect(ndJsonStream(output, input));
  const exited = agent.exited.then((exit) => {
    throw new AgentExited(exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`);
  });
  exited.catch(() => {});
  const describe = (what: string): string => {
    const tail = agent.stderrTail();
    const clipped = tail.length > MAX_STDERR_IN_MESSAGE ? `…${tail.slice(-MAX_STDERR_IN_MESSAGE)}` : tail;
    return `agent "${options.agentName}" (${options.command}) ${what}${clipped ? `; its stderr ends with:\n${clipped}` : ''}`;
  };
  const result: AgentSessionResult = { message: '', resumed: false, cancelled: false };
  let phase = 'initialize';
  try {
    const peer: ClientContext = connection.agent;
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) abort.abort();
    try {
      const initTimer = setTimeout(() => abort.abort(new Error('init-timeout')), options.initTimeoutMs);
      const init = await Promise.race([
        peer.request('initialize', {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
          clientInfo: { name: 'attractor', version: '1' },
        }),
        exited,
        abortPromise(abort.signal),
      ]).finally(() => clearTimeout(initTimer));
      phase = 'session/new';
      if (options.resumeSessionId && init.agentCapabilities?.loadSession) {
        phase = 'session/load';
        replaying = true;
        try {
          await Promise.race([
            peer.request('session/load', {
              sessionId: options.resumeSessionId,
              cwd: options.cwd,
              mcpServers: options.mcpServers,
            }),
            exited,
            abortPromise(abort.signal),
          ]);
          sessionId = options.resumeSessionId;
          result.resumed = true;
        } catch (error) {
          if (error instanceof AgentExited || abort.signal.aborted) throw error;
        } finally {
          replaying = false;
        }
      }
      if (sessionId === undefined) {
        phase = 'session/new';
        const created = await Promise.race([
          peer.request('session/new', { cwd: options.cwd, mcpServers: options.mcpServers }),
          exited,
          abortPromise(abort.signal),
        ]);
        sessionId = created.sessionId;
      }
      result.sessionId = sessionId;
      phase = 'session/prompt';
      const activeSession = sessionId;
      const prompting = peer.request('session/prompt', {
        sessionId: activeSession,
        prompt: [{ type: 'text', text: options.prompt(result.resumed) }],
      });
      prompting.catch(() => {});
      const response: PromptResponse = await Promise.race([
        prompting,
        exited,
        abortPromise(abort.signal).catch(async (reason) => {
          // Ask the agent to stop; it answers the prompt with `cancelled` if it complies in time.
          await peer.notify('session/cancel', { sessionId: activeSession }).catch(() => {});
          const graceful = await Promise.race([prompting, exited, sleep(options.cancelGraceMs)]).catch(
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
    } finally {
      options.signal.removeEventListener('abort', onAbort);
    }
  } catch (caught) {
    if (options.signal.aborted) {
      result.cancelled = true;
      result.failure = `agent "${options.agentName}" was cancelled during ${phase}`;
    } else if (caught instanceof Error && caught.message === 'init-timeout') {
      result.failure = describe(`did not answer initialize within ${options.initTimeoutMs} ms`);
    } else {
      // A dying agent closes its pipes a moment before its exit is reported: name the exit, not the pipe.
      const error = caught instanceof AgentExited ? caught : await exitedSoon(agent, caught);
      result.failure =
        error instanceof AgentExited
          ? describe(`${error.message} during ${phase}`)
          : describe(`failed during ${phase}: ${error instanceof Error ? error.message : String(error)}`);
    }
  } finally {
    // Why the agent gave up is often ours (no one to ask): say so with its failure.
    if (result.failure && handlerError) result.failure += ` (${handlerError})`;
    result.message = updates.message;
    await terminals.releaseAll();
    connection.close();
    agent.child.stdin.end();
    // The visit is over: whatever the agent started goes too (a clean agent exits on EOF first).
    await Promise.race([agent.exited, sleep(Math.min(500, options.cancelGraceMs))]);
    await agent.kill(options.cancelGraceMs);
  }
  return result;
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
