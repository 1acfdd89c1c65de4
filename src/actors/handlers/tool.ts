import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomicAsync } from '../../shared/atomic-write.js';
import { definedFields } from '../../shared/defined-fields.js';
import { filterSecretEnv, parseEnvPassthrough } from '../../shared/process/filter-secret-env.js';
import { passedSecrets, redactSecrets } from '../../shared/process/redact-secrets.js';
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

/** A traced run's context for the command, so a traced command's spans join the run's trace. */
const traceparentEnv = (traceparent: string | undefined): Record<string, string> =>
  traceparent === undefined ? {} : { TRACEPARENT: traceparent };

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
    const baseEnv = options.env ?? process.env;
    const sandbox = nodeSandbox(sandboxOrDefault(services.sandbox), node.attrs, graph.attrs, [cwd]);
    const result = await runTool({
      command,
      cwd,
      // The run's values come last: a declared parameter is what the pipeline asked for by that name.
      env: {
        ...filterSecretEnv(baseEnv, passthrough),
        ...pipelineValuesEnv(graph, context),
        ...traceparentEnv(services.traceparent?.(node.id)),
      },
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      signal,
      stdoutPath: join(stageDir, 'stdout.log'),
      stderrPath: join(stageDir, 'stderr.log'),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      ...(services.processes ? { ledger: services.processes, node: node.id } : {}),
      ...definedFields({ sandbox }),
    });
    // A secret the node let through may be printed: what is kept of the output never shows it.
    const secrets = passedSecrets(baseEnv, passthrough);
    if (secrets.size > 0) await redactLogs(stageDir, secrets);
    const output = redactSecrets(result.stdoutTail, secrets).trim();
    const context_updates = {
      'tool.output': output,
      'tool.last_line': lastLine(output),
      'tool.exit_code': result.exitCode ?? -1,
    };
    const stderr = redactSecrets(result.stderrTail, secrets).trim();
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

/** The stage's `stdout.log` and `stderr.log` without the secrets the command was given. */
async function redactLogs(stageDir: string, secrets: ReadonlyMap<string, string>): Promise<void> {
  for (const name of ['stdout.log', 'stderr.log']) {
    const file = join(stageDir, name);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const redacted = redactSecrets(text, secrets);
    if (redacted !== text) await writeFileAtomicAsync(file, redacted, { durable: false });
  }
}

export const toolHandler: NodeHandler = createToolHandler();
