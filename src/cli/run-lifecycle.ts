import path from 'node:path';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { PipelineRun, RunOptions, RunResult } from '../run/run-types.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { localIdentity } from '../shared/identity.js';
import type { RunTui } from '../tui/start-run-tui.js';
import type { CliContext } from './cli-context.js';
import { displayPath } from './display-path.js';
import type { EventPrinter } from './event-printer.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import { formatDiagnostic } from './format-diagnostic.js';
import { formatRunCost } from './format-usage.js';
import { DEFAULT_INSPECT_PORT, type InspectStream } from './inspect-stream.js';
import { loadTui } from './load-tui.js';
import type { RunFlags } from './run-flags.js';
import { formatRunSummary } from './run-summary.js';
import type { AnsweringInterviewer } from './terminal-interviewer.js';

/**
 * Lint and scenario warnings go to stderr before the run's first event (so --json stdout stays events
 * only), each `file:line:col` in the path as the user typed it.
 */
export function printWarnings(
  ctx: CliContext,
  show: (d: Diagnostic) => Diagnostic,
): (warnings: Diagnostic[]) => void {
  return (warnings) => {
    for (const warning of warnings)
      ctx.io.stderr(`${formatDiagnostic(show(warning), warning.loc?.file ?? '', ctx.colors)}\n`);
  };
}

/**
 * Ctrl-C once pauses after the current node; twice cancels at once. At a gate nothing could finish
 * first (pausing "after this node" would wait for an answer): the first Ctrl-C stops there, and the
 * resumed gate asks its question again.
 */
function handleInterrupts(
  run: PipelineRun,
  ctx: CliContext,
  pendingGate: () => string | undefined,
): { interrupted: () => boolean; dispose: () => void } {
  let count = 0;
  const onSigint = () => {
    count += 1;
    const gate = count === 1 ? pendingGate() : undefined;
    if (gate !== undefined) {
      ctx.io.stderr(`\nattractor: stopping at gate ${gate}; a resume asks its question again\n`);
      run.cancel(localIdentity());
    } else if (count === 1) {
      ctx.io.stderr('\nattractor: finishing the current node, then stopping (Ctrl-C again to abort now)\n');
      run.pause();
    } else {
      ctx.io.stderr('\nattractor: aborting now\n');
      run.cancel(localIdentity());
    }
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  return {
    interrupted: () => count > 0,
    dispose: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    },
  };
}

export async function finish(
  run: PipelineRun,
  interviewer: Interviewer | undefined,
  printer: EventPrinter,
  flags: RunFlags,
  ctx: CliContext,
  inspection?: InspectStream,
  tui?: RunTui,
): Promise<number> {
  tui?.mount(run);
  const interrupts = handleInterrupts(
    run,
    ctx,
    () => (interviewer as Partial<AnsweringInterviewer> | undefined)?.pendingGate?.() ?? undefined,
  );
  // Nobody reads the output any more (`| head -1`): an interruption, not a reason to die mid-node.
  const unsubscribe = ctx.io.onStdoutClosed?.(() => {
    ctx.io.stderr('attractor: stdout was closed; stopping the run\n');
    run.cancel(localIdentity());
  });
  let result: RunResult;
  try {
    result = await run.result;
  } finally {
    await tui?.close();
    unsubscribe?.();
    interrupts.dispose();
    await inspection?.close();
    // A console interviewer holds stdin open; release it so the process can exit.
    (interviewer as { close?: () => void } | undefined)?.close?.();
  }
  const say = flags.json ? ctx.io.stderr : ctx.io.stdout;
  const rel = displayPath(ctx.io.cwd, result.runDir);
  if (result.alreadyFinished) {
    say(`Run ${result.runId} already finished (${result.status}); nothing to resume.\n`);
    return result.status === 'completed' ? EXIT_OK : EXIT_FAILURE;
  }
  switch (result.status) {
    case 'completed':
    case 'failed': {
      const reason = result.failure?.reason;
      const line = formatRunSummary(result, {
        retried: printer.retried(),
        reasonShown: !flags.json && reason !== undefined && printer.shown(reason),
        runDir: rel,
        colors: ctx.colors,
      });
      say(`${line}\n`);
      // A real run says what it cost, and with which models, last.
      const cost = formatRunCost(result.usage, printer.models());
      if (cost) say(`${cost}\n`);
      if (result.status === 'completed') return EXIT_OK;
      say(whatNext(rel, result.failure?.node ?? result.stoppedAt));
      return EXIT_FAILURE;
    }
    case 'paused':
      if (result.budgetExceeded) {
        ctx.io.stderr(
          `${ctx.colors.yellow('Paused')} at ${result.stoppedAt ?? '?'}: ${result.budgetExceeded}. Resume with a higher budget: attractor resume ${JSON.stringify(rel)} --max-cost USD\n`,
        );
        return EXIT_FAILURE;
      }
      ctx.io.stderr(
        `Interrupted at ${result.stoppedAt ?? '?'}. Resume with: attractor resume ${JSON.stringify(rel)}\n`,
      );
      return EXIT_INTERRUPTED;
    case 'cancelled':
      ctx.io.stderr(
        `Interrupted at ${result.stoppedAt ?? '?'}. Resume with: attractor resume ${JSON.stringify(rel)}\n`,
      );
      return EXIT_INTERRUPTED;
  }
}

/**
 * A failed run's last lines: the commands that go on from it — a resume starts again at the node that
 * failed (with its retries renewed), a fork starts a new run there, leaving this one as it is.
 */
export function whatNext(runDir: string, failedAt: string | undefined): string {
  const dir = JSON.stringify(runDir);
  const resume = `Resume with: attractor resume ${dir}${failedAt ? ` (starts again at ${failedAt})` : ''}\n`;
  return failedAt ? `${resume}Fork with:   attractor fork ${dir} --from ${failedAt}\n` : resume;
}

/** `--inspect [PORT]` and `--inspect-log FILE`: opened before the run, closed when it ends. */
export async function openInspection(flags: RunFlags, ctx: CliContext): Promise<InspectStream | undefined> {
  if (flags.inspect === undefined && flags.inspectLog === undefined) return undefined;
  const port = flags.inspect === undefined ? undefined : parsePort(flags.inspect);
  const { openInspectStream } = await import('./inspect-stream.js');
  if (flags.inspectOrigin && port === undefined) {
    throw new AttractorError(
      'BAD_FLAG',
      '--inspect-origin needs --inspect: it says who may read that stream.',
    );
  }
  const stream = await openInspectStream({
    ...definedFields({ port }),
    ...(flags.inspectLog ? { logFile: path.resolve(ctx.io.cwd, flags.inspectLog) } : {}),
    ...definedFields({ origins: flags.inspectOrigin }),
  });
  if (stream.url) ctx.io.stderr(`attractor: inspector at ${stream.url} (open it in a browser)\n`);
  return stream;
}

function parsePort(value: boolean | string): number {
  if (value === true) return DEFAULT_INSPECT_PORT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new AttractorError('BAD_FLAG', `--inspect takes a port number (0-65535), got "${String(value)}".`);
  }
  return n;
}

/** A terminal gets the TUI unless `--no-tui`, `--json` or `CI` say otherwise. */
function wantsTui(flags: RunFlags, ctx: CliContext): boolean {
  return (
    flags.tui !== false && !flags.json && ctx.io.isTTY && process.stdin.isTTY === true && !ctx.io.env['CI']
  );
}

/** The Ink TUI, loaded only now; it answers gates unless the run auto-approves them. */
export async function openTui(
  flags: RunFlags,
  ctx: CliContext,
  pipeline: { graph: PipelineGraph },
  replayFrom?: string,
): Promise<RunTui | undefined> {
  if (!wantsTui(flags, ctx)) return undefined;
  const { startRunTui } = await loadTui();
  return startRunTui({ ...pipeline, ...(replayFrom ? { replayFrom } : {}), env: ctx.io.env });
}

/**
 * Starts the run, its actor system inspected by `--inspect` and by the TUI (which follows the live
 * actor); if starting throws, the inspection server must not keep the process alive.
 */
export async function startWith(
  inspection: InspectStream | undefined,
  tui: RunTui | undefined,
  start: (inspect?: RunOptions['inspect']) => PipelineRun,
): Promise<PipelineRun> {
  const inspect: RunOptions['inspect'] =
    inspection && tui
      ? (e) => {
          inspection.inspect(e);
          tui.inspect(e);
        }
      : inspection
        ? (e) => inspection.inspect(e)
        : tui?.inspect;
  try {
    return start(inspect);
  } catch (error) {
    await inspection?.close();
    throw error;
  }
}
