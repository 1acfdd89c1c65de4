import { statSync } from 'node:fs';
import { join } from 'node:path';
import { filterSecretEnv, parseEnvPassthrough } from '../../shared/process/filter-secret-env.js';
import { nodeSandbox, sandboxOrDefault } from '../../shared/sandbox/sandbox-settings.js';
import type { NodeHandler } from '../handler-types.js';
import { pipelineValuesEnv } from '../tool/pipeline-values-env.js';
import { runTool } from '../tool/run-tool.js';

export interface ToolHandlerOptions {
  /** Working directory when the engine gives none in `HandlerInput.workingDir` (default `process.cwd()`). */
  cwd?: string;
  /** Milliseconds between SIGTERM and SIGKILL (default 2000). */
  killGraceMs?: number;
  /** Base environment before secret filtering (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1) ?? '';

/**
 * Runs `tool_command` with `/bin/sh -c` (a `parallelogram` node), with the run's goal and
 * parameters as environment variables (`$goal`, `$feature`: `pipelineValuesEnv`). Exit 0 is SUCCESS, anything else
 * FAIL with the exit code and the end of stderr. stdout/stderr are kept in full as `stdout.log` and
 * `stderr.log` in the stage directory; the context gets `tool.output` (end of stdout, trimmed),
 * `tool.last_line` and `tool.exit_code`. The command runs in the run's sandbox (`sandbox`, `sandbox_egress`
 * on the node or graph; decision 0341); a failure the sandbox caused ends stderr with a `sandbox:` note.
 */
export function createToolHandler(options: ToolHandlerOptions = {}): NodeHandler {
  return async ({ node, graph, context, stageDir, signal, workingDir, services }) => {
    const command = node.attrs.tool_command?.trim();
    if (!command) return { status: 'fail', failure_reason: 'No tool_command specified' };
    const passthrough = [
      ...parseEnvPassthrough(node.attrs.env_passthrough),
      ...parseEnvPassthrough(graph.attrs.env_passthrough),
    ];
    // Like the engine's node timeout: 0 means none (not "kill at once").
    const timeoutMs =
      node.attrs.timeout !== undefined && node.attrs.timeout > 0 ? node.attrs.timeout : undefined;
    const cwd = workingDir ?? options.cwd ?? process.cwd();
    // spawn reports a missing cwd as "spawn /bin/sh ENOENT", which points at the wrong thing.
    if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
      return { status: 'fail', failure_reason: `working directory ${cwd} does not exist` };
    }
    const sandbox = nodeSandbox(sandboxOrDefault(services.sandbox), node.attrs, graph.attrs, [cwd]);
    const result = await runTool({
      command,
      cwd,
      // The run's values come last: a declared parameter is what the pipeline asked for by that name.
      env: {
        ...filterSecretEnv(options.env ?? process.env, passthrough),
        ...pipelineValuesEnv(graph, context),
      },
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      signal,
      stdoutPath: join(stageDir, 'stdout.log'),
      stderrPath: join(stageDir, 'stderr.log'),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      ...(services.processes ? { ledger: services.processes, node: node.id } : {}),
      ...(sandbox ? { sandbox } : {}),
    });
    const output = result.stdoutTail.trim();
    const context_updates = {
      'tool.output': output,
      'tool.last_line': lastLine(output),
      'tool.exit_code': result.exitCode ?? -1,
    };
    const stderr = result.stderrTail.trim();
    if (result.timedOut) {
      return { status: 'fail', failure_reason: `timed out after ${timeoutMs} ms`, context_updates };
    }
    if (result.cancelled) return { status: 'fail', failure_reason: 'cancelled', context_updates };
    if (result.exitCode !== 0) {
      const how =
        result.exitCode === null ? `killed by ${result.exitSignal}` : `exit code ${result.exitCode}`;
      return {
        status: 'fail',
        failure_reason: stderr ? `${how}: ${stderr}` : how,
        context_updates,
      };
    }
    return { status: 'success', notes: `Tool completed: ${command}`, context_updates };
  };
}

export const toolHandler: NodeHandler = createToolHandler();
