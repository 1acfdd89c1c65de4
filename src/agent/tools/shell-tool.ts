import * as z from 'zod';
import { definedFields } from '../../shared/defined-fields.js';
import type { ExecResult } from '../environment/execution-environment.js';
import { defineTool } from './define-tool.js';
import { describeFailure } from './describe-failure.js';

/** Used when neither the model nor the session gives a timeout. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;
/** `max_command_timeout_ms`. */
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

/** What the model reads when a command times out, word for word as the other agents say it. */
export const timeoutNotice = (timeoutMs: number): string =>
  `[ERROR: Command timed out after ${timeoutMs}ms. Partial output is shown above.\n` +
  'You can retry with a longer timeout by setting the timeout_ms parameter.]';

/** stdout, then a `STDERR:` section when stderr is not empty, then what ended the command if not exit 0. */
export function formatShellOutput(result: ExecResult, timeoutMs: number): string {
  const parts: string[] = [];
  if (result.stdout.length > 0) parts.push(result.stdout.replace(/\n$/, ''));
  if (result.stderr.length > 0) parts.push(`STDERR:\n${result.stderr.replace(/\n$/, '')}`);
  if (result.timedOut) parts.push(timeoutNotice(timeoutMs));
  else if (result.aborted) parts.push('[Command aborted]');
  else if (result.exitCode !== 0) parts.push(`[Exit code: ${result.exitCode}]`);
  return parts.length > 0 ? parts.join('\n') : '(no output)';
}

export const shellTool = defineTool({
  name: 'shell',
  description:
    'Run a shell command (bash) in the working directory and return its stdout, stderr and exit status. Long-running commands are killed at the timeout.',
  parameters: z.object({
    command: z.string().min(1).describe('The shell command to execute.'),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(`Timeout in milliseconds. Default: ${DEFAULT_COMMAND_TIMEOUT_MS}.`),
    description: z.string().optional().describe('A few words on what the command is for.'),
  }),
  async execute({ command, timeout_ms }, ctx) {
    const ceiling = ctx.maxCommandTimeoutMs ?? MAX_COMMAND_TIMEOUT_MS;
    const timeoutMs = Math.min(
      timeout_ms ?? ctx.defaultCommandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      ceiling,
    );
    let result: ExecResult;
    try {
      result = await ctx.env.execCommand(command, {
        timeoutMs,
        signal: ctx.signal,
        ...definedFields({ onOutput: ctx.onOutputDelta }),
      });
    } catch (error) {
      return describeFailure(error);
    }
    return {
      output: formatShellOutput(result, timeoutMs),
      isError: result.exitCode !== 0 || result.timedOut || result.aborted,
      omittedChars: result.omittedChars,
    };
  },
});
