import type { ToolCallPart } from '../../llm/index.js';
import { runToolHooks, type ToolHooks } from '../hooks/run-tool-hooks.js';
import type { AgentTool, AgentToolResult, ToolContext } from '../tools/define-tool.js';
import {
  agentToolError,
  finishAgentTool,
  isPending,
  type RunAgentToolResult,
  runAgentTool,
  startAgentTool,
} from '../tools/run-agent-tool.js';
import { AgentEventKind } from './agent-event.js';
import type { SessionRuntime } from './session-runtime.js';
import { type ToolResult, type ToolResultsTurn, Turns } from './turn.js';

/**
 * Runs every tool call of one model turn, concurrently when the profile allows parallel calls (results keep
 * the calls' order), and gives what the model sees: the history's tool-results turn, timed when the round
 * ended. Failures of any kind become error results: an unknown tool, arguments that are not JSON, a tool
 * that throws.
 *
 * The usual round, one call with no hooks, costs its caller one job: the turn comes back at once when there is
 * nothing to wait for (a refusal, invalid arguments, a tool that answered synchronously), else as a
 * {@link RunningToolCall}, whose tool's own promise the caller awaits before ending the call; every other
 * round is a promise of the turn.
 */
export function executeToolRound(
  rt: SessionRuntime,
  calls: readonly ToolCallPart[],
  signal: AbortSignal,
  /** The time the round starts, when the caller read the clock in the same synchronous step. */
  atMs?: number,
): ToolResultsTurn | RunningToolCall | Promise<ToolResultsTurn> {
  if (calls.length === 1) return executeSingleCall(rt, calls[0]!, signal, atMs);
  if (rt.profile.supportsParallelToolCalls) {
    // Every call starts in this same step, so they share its time.
    return Promise.all(calls.map((call) => executeToolCall(rt, call, signal, atMs))).then(inTurn);
  }
  return executeInTurn(rt, calls, signal).then(inTurn);
}

/**
 * A one-call round whose tool is still running. Await `running`, then `end` the call with what it resolved to,
 * or `fail` it with what it rejected with: either emits TOOL_CALL_END and returns the round's turn.
 */
export class RunningToolCall {
  readonly #rt: SessionRuntime;
  readonly #call: ToolCallPart;
  readonly #tool: AgentTool;
  readonly running: PromiseLike<AgentToolResult>;

  constructor(
    rt: SessionRuntime,
    call: ToolCallPart,
    tool: AgentTool,
    running: PromiseLike<AgentToolResult>,
  ) {
    this.#rt = rt;
    this.#call = call;
    this.#tool = tool;
    this.running = running;
  }

  end(answer: AgentToolResult): ToolResultsTurn {
    const rt = this.#rt;
    return singleResult(rt, this.#call, finishAgentTool(this.#tool, answer, rt.config.truncationConfig));
  }

  fail(error: unknown): ToolResultsTurn {
    const rt = this.#rt;
    return singleResult(rt, this.#call, agentToolError(this.#tool, error, rt.config.truncationConfig));
  }
}

function executeSingleCall(
  rt: SessionRuntime,
  call: ToolCallPart,
  signal: AbortSignal,
  atMs: number | undefined,
): ToolResultsTurn | RunningToolCall | Promise<ToolResultsTurn> {
  emitToolCallStart(rt, call, atMs);
  const refusal = refuse(rt, call, signal);
  if (refusal !== undefined) return singleResult(rt, call, failed(refusal));
  if (hasHooks(rt.toolHooks)) {
    return runHooked(rt, call, signal).then(
      (ran) => singleResult(rt, call, ran),
      (error: unknown) => singleResult(rt, call, toolError(call, error)),
    );
  }
  const tool = rt.tools.get(call.toolName)!;
  const started = startAgentTool(
    tool,
    call.arguments,
    toolContext(rt, call, signal),
    rt.config.truncationConfig,
  );
  return isPending(started) ? new RunningToolCall(rt, call, tool, started) : singleResult(rt, call, started);
}

const inTurn = (results: ToolResult[]): ToolResultsTurn => Turns.toolResults(results);

function singleResult(rt: SessionRuntime, call: ToolCallPart, ran: RunAgentToolResult): ToolResultsTurn {
  const now = Date.now();
  return Turns.toolResults([endToolCall(rt, call, ran, now)], now);
}

async function executeInTurn(
  rt: SessionRuntime,
  calls: readonly ToolCallPart[],
  signal: AbortSignal,
): Promise<ToolResult[]> {
  const results: ToolResult[] = [];
  for (const call of calls) results.push(await executeToolCall(rt, call, signal));
  return results;
}

async function executeToolCall(
  rt: SessionRuntime,
  call: ToolCallPart,
  signal: AbortSignal,
  atMs?: number,
): Promise<ToolResult> {
  let ran: RunAgentToolResult;
  try {
    ran = await startToolCall(rt, call, signal, atMs);
  } catch (error) {
    ran = toolError(call, error);
  }
  return endToolCall(rt, call, ran);
}

/**
 * TOOL_CALL_START, then one call of a round of several: the refusal at once when it cannot run, else the
 * running tool (with its hooks, if any).
 */
function startToolCall(
  rt: SessionRuntime,
  call: ToolCallPart,
  signal: AbortSignal,
  atMs: number | undefined,
): RunAgentToolResult | Promise<RunAgentToolResult> {
  emitToolCallStart(rt, call, atMs);
  const refusal = refuse(rt, call, signal);
  if (refusal !== undefined) return failed(refusal);
  return hasHooks(rt.toolHooks) ? runHooked(rt, call, signal) : runTool(rt, call, signal);
}

function emitToolCallStart(rt: SessionRuntime, call: ToolCallPart, atMs: number | undefined): void {
  rt.emit(
    AgentEventKind.TOOL_CALL_START,
    { tool_name: call.toolName, tool_call_id: call.toolCallId, arguments: call.arguments },
    atMs,
  );
}

/** TOOL_CALL_END with the full output, and the result the model sees. */
function endToolCall(
  rt: SessionRuntime,
  call: ToolCallPart,
  ran: RunAgentToolResult,
  atMs?: number,
): ToolResult {
  rt.emit(
    AgentEventKind.TOOL_CALL_END,
    {
      tool_name: call.toolName,
      tool_call_id: call.toolCallId,
      output: ran.output,
      truncated_output: ran.truncated,
      is_error: ran.isError,
    },
    atMs,
  );
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    content: ran.truncated,
    isError: ran.isError,
  };
}

const toolError = (call: ToolCallPart, error: unknown): RunAgentToolResult =>
  failed(`Tool error (${call.toolName}): ${error instanceof Error ? error.message : String(error)}`);

const failed = (output: string): RunAgentToolResult => ({ output, truncated: output, isError: true });

/** Why the call cannot run at all (unknown tool, arguments that are not JSON, the session aborted), if so. */
function refuse(rt: SessionRuntime, call: ToolCallPart, signal: AbortSignal): string | undefined {
  if (!rt.tools.has(call.toolName)) return `Unknown tool: ${call.toolName}`;
  if (!argumentsAreJson(call)) {
    return `Invalid arguments for tool: ${call.toolName}: the arguments are not a JSON object.`;
  }
  if (signal.aborted) return `Tool ${call.toolName} was not run: the session was aborted.`;
  return undefined;
}

function hasHooks(hooks: ToolHooks | undefined): hooks is ToolHooks {
  return Boolean(hooks?.pre?.trim() || hooks?.post?.trim());
}

function runTool(rt: SessionRuntime, call: ToolCallPart, signal: AbortSignal): Promise<RunAgentToolResult> {
  return runAgentTool(
    rt.tools.get(call.toolName)!,
    call.arguments,
    toolContext(rt, call, signal),
    rt.config.truncationConfig,
  );
}

function toolContext(rt: SessionRuntime, call: ToolCallPart, signal: AbortSignal): ToolContext {
  return {
    env: rt.env,
    signal,
    callId: call.toolCallId,
    defaultCommandTimeoutMs: rt.config.defaultCommandTimeoutMs ?? rt.profile.defaultCommandTimeoutMs,
    maxCommandTimeoutMs: rt.config.maxCommandTimeoutMs,
    onOutputDelta: (text) =>
      rt.emit(AgentEventKind.TOOL_CALL_OUTPUT_DELTA, { text, tool_call_id: call.toolCallId }),
  };
}

async function runHooked(
  rt: SessionRuntime,
  call: ToolCallPart,
  signal: AbortSignal,
): Promise<RunAgentToolResult> {
  const meta = {
    toolName: call.toolName,
    callId: call.toolCallId,
    arguments: call.arguments,
    sessionId: rt.id,
  };
  const hooked = await runToolHooks(rt.toolHooks!, meta, () => runTool(rt, call, signal), {
    env: rt.env,
    signal,
  });
  for (const run of hooked.hooks) {
    if (run.phase === 'post' && (run.exitCode !== 0 || run.timedOut)) {
      rt.emit(AgentEventKind.WARNING, {
        message: `The post-tool hook (${run.command}) ${run.timedOut ? 'timed out' : `exited with code ${run.exitCode}`} after ${call.toolName}.`,
        tool_call_id: call.toolCallId,
        hook_output: run.output,
      });
    }
  }
  return hooked.skipped ? failed(hooked.result.output) : (hooked.result as RunAgentToolResult);
}

/** toolCallPart turned anything but a JSON object into `{}`; only an empty result needs a second look. */
function argumentsAreJson(call: ToolCallPart): boolean {
  for (const _ in call.arguments) return true;
  const text = call.argumentsJson.trim();
  if (text === '' || text === '{}') return true;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
