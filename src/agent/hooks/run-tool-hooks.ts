import { definedFields } from '../../shared/defined-fields.js';
import type { ExecResult, ExecutionEnvironment } from '../environment/execution-environment.js';

/** `tool_hooks.pre` / `tool_hooks.post` of the graph or node: shell commands run around each tool call. */
export interface ToolHooks {
  pre?: string;
  post?: string;
}

/** What a hook is told about the call (as `ATTRACTOR_*` variables and as JSON on stdin). */
export interface ToolCallMeta {
  toolName: string;
  callId: string;
  /** The arguments as the model sent them. */
  arguments: unknown;
  sessionId?: string;
  nodeId?: string;
}

export interface ToolCallOutcome {
  output: string;
  isError: boolean;
}

export interface HookRun {
  phase: 'pre' | 'post';
  command: string;
  exitCode: number;
  timedOut: boolean;
  /** stdout and stderr of the hook, trimmed. */
  output: string;
}

export interface ToolHookOptions {
  env: ExecutionEnvironment;
  signal?: AbortSignal;
  /** Default 60 000 ms: a hook may run a linter, but must not hang the session. */
  timeoutMs?: number;
}

export interface HookedCall<R extends ToolCallOutcome> {
  /** The tool's result, or the refusal the model reads when the pre-hook failed. */
  result: R | ToolCallOutcome;
  /** The call was not run because the pre-hook failed. */
  skipped: boolean;
  /** Every hook that ran, for the session to log (a failing post-hook is only logged). */
  hooks: HookRun[];
}

const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/**
 * Runs one tool call between its hooks: the pre-hook first — a non-zero exit (or a
 * timeout) skips the call, and the model is told why, with what the hook printed; then the call; then the
 * post-hook, which also sees the output and whose failure is only reported in `hooks`. Hooks run through
 * the session's environment, so they are confined to its working directory and never see credentials.
 *
 * @example
 * const { result } = await runToolHooks({ pre: './check.sh' }, meta, () => runAgentTool(tool, args, ctx), { env });
 */
export async function runToolHooks<R extends ToolCallOutcome>(
  hooks: ToolHooks,
  meta: ToolCallMeta,
  execute: () => Promise<R>,
  options: ToolHookOptions,
): Promise<HookedCall<R>> {
  const runs: HookRun[] = [];
  if (hooks.pre?.trim()) {
    const pre = await runHook('pre', hooks.pre, meta, undefined, options);
    runs.push(pre);
    if (pre.exitCode !== 0 || pre.timedOut) {
      const why = pre.timedOut ? 'timed out' : `exited with code ${pre.exitCode}`;
      const output =
        `Tool call skipped: the pre-tool hook (${pre.command}) ${why}.` +
        (pre.output ? `\nHook output:\n${pre.output}` : '');
      return { result: { output, isError: true }, skipped: true, hooks: runs };
    }
  }
  const result = await execute();
  if (hooks.post?.trim()) runs.push(await runHook('post', hooks.post, meta, result, options));
  return { result, skipped: false, hooks: runs };
}

/** The variables a hook sees besides the (filtered) environment. */
export function hookEnvironment(
  phase: 'pre' | 'post',
  meta: ToolCallMeta,
  outcome?: ToolCallOutcome,
): Record<string, string> {
  return {
    ATTRACTOR_HOOK_PHASE: phase,
    ATTRACTOR_TOOL_NAME: meta.toolName,
    ATTRACTOR_TOOL_CALL_ID: meta.callId,
    ATTRACTOR_TOOL_ARGUMENTS: JSON.stringify(meta.arguments ?? {}),
    ...(meta.sessionId ? { ATTRACTOR_SESSION_ID: meta.sessionId } : {}),
    ...(meta.nodeId ? { ATTRACTOR_NODE_ID: meta.nodeId } : {}),
    ...(outcome ? { ATTRACTOR_TOOL_IS_ERROR: outcome.isError ? 'true' : 'false' } : {}),
  };
}

async function runHook(
  phase: 'pre' | 'post',
  command: string,
  meta: ToolCallMeta,
  outcome: ToolCallOutcome | undefined,
  options: ToolHookOptions,
): Promise<HookRun> {
  const stdin = {
    phase,
    tool_name: meta.toolName,
    tool_call_id: meta.callId,
    arguments: meta.arguments ?? {},
    ...(meta.sessionId ? { session_id: meta.sessionId } : {}),
    ...(meta.nodeId ? { node_id: meta.nodeId } : {}),
    ...(outcome ? { output: outcome.output, is_error: outcome.isError } : {}),
  };
  const result: ExecResult = await options.env.execCommand(command, {
    timeoutMs: options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    envVars: hookEnvironment(phase, meta, outcome),
    input: `${JSON.stringify(stdin)}\n`,
    ...definedFields({ signal: options.signal }),
  });
  const output = [result.stdout.trim(), result.stderr.trim()].filter((s) => s.length > 0).join('\n');
  return { phase, command, exitCode: result.exitCode, timedOut: result.timedOut, output };
}
