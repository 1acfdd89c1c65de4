import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../run/run-types.js';
import { AttractorError } from '../shared/errors.js';
import { pipelineEventLineSchema } from '../shared/events/event-line-schema.js';
import type { PipelineEvent, PipelineEventOf } from '../shared/pipeline-event.js';
import type { CliContext } from './cli-context.js';
import { displayPath } from './display-path.js';
import { createEventPrinter, type EventPrinter } from './event-printer.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import { formatRunCost } from './format-usage.js';
import { loadTui } from './load-tui.js';
import { formatRunSummary } from './run-summary.js';

const exitFor = (phase: string): number =>
  phase === 'done' ? EXIT_OK : phase === 'failed' ? EXIT_FAILURE : EXIT_INTERRUPTED;

/**
 * The last line `attractor run` prints, from the run's `pipeline.finalize` alone: how it ended, its
 * quality and reasons, and (for a real run) what it cost.
 */
function finalLines(
  event: PipelineEventOf<'pipeline.finalize'>,
  printer: EventPrinter,
  runDir: string,
  ctx: CliContext,
): string {
  const { status, quality, reason, stopped_at: stoppedAt, failed_at: failedAt } = event.data;
  const shown = displayPath(ctx.io.cwd, runDir);
  if (status !== 'completed' && status !== 'failed')
    return `Interrupted${stoppedAt ? ` at ${stoppedAt}` : ''}${reason ? `: ${reason}` : ''}. Resume with: attractor resume ${JSON.stringify(shown)}\n`;
  const result: RunResult = {
    status,
    quality,
    runId: '',
    runDir,
    ...(stoppedAt ? { stoppedAt } : {}),
    ...(status === 'failed' && reason
      ? { failure: { reason, ...(failedAt ? { node: failedAt } : {}) } }
      : {}),
    ...(status === 'completed' && reason && stoppedAt ? { deadEnd: { node: stoppedAt, reason } } : {}),
    context: {},
    completedNodes: [],
    failedNodes: event.data.failed_nodes,
    recoveredNodes: event.data.recovered_nodes,
    partialNodes: event.data.partial_nodes,
  };
  const summary = formatRunSummary(result, {
    retried: printer.retried(),
    reasonShown: reason !== undefined && printer.shown(reason),
    runDir: shown,
    colors: ctx.colors,
  });
  const cost = formatRunCost(event.data.usage, printer.models());
  return `${summary}\n${cost ? `${cost}\n` : ''}`;
}

/** Plain lines for a pipe: replay, follow until pipeline.finalize, then the run's last line. */
async function followPlain(runDir: string, ctx: CliContext): Promise<number> {
  const printer = createEventPrinter(false, ctx);
  const { followLines } = await import('../tui/follow-file.js');
  let code: number | undefined;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const follower = followLines(path.join(runDir, 'events.jsonl'), (line) => {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return;
    }
    // A line read back is checked against its kind's schema before its fields are trusted; one another
    // version of attractor wrote differently is still shown, and still ends the follow if it ends the run.
    const parsed = pipelineEventLineSchema.safeParse(raw);
    const event = (parsed.success ? parsed.data : raw) as PipelineEvent;
    printer.print(event);
    if (event.kind === 'pipeline.finalize' && code === undefined) {
      if (parsed.success) ctx.io.stdout(finalLines(event, printer, runDir, ctx));
      const { status } = event.data;
      code = status === 'completed' ? EXIT_OK : status === 'failed' ? EXIT_FAILURE : EXIT_INTERRUPTED;
      finish(code);
    }
  });
  const result = await done;
  follower.close();
  return result;
}

export async function runAttach(
  dir: string,
  flags: { tui?: boolean; answer?: string; question?: string },
  ctx: CliContext,
): Promise<number> {
  const runDir = path.resolve(ctx.io.cwd, dir);
  if (!existsSync(runDir) || !statSync(runDir).isDirectory()) {
    throw new AttractorError('ATTACH_NOT_A_RUN', `nothing to attach to at ${dir}: no such directory.`);
  }
  if (!existsSync(path.join(runDir, 'manifest.json'))) {
    throw new AttractorError('ATTACH_NOT_A_RUN', `${dir} has no manifest.json: is it a run directory?`);
  }
  if (flags.question !== undefined && flags.answer === undefined) {
    throw new AttractorError('BAD_FLAG', '--question needs --answer: the answer to give that question.');
  }
  if (flags.answer !== undefined) {
    const { answerGate } = await import('./answer-gate.js');
    return answerGate(runDir, flags.answer, ctx, flags.question);
  }
  const tty = flags.tui !== false && ctx.io.isTTY && process.stdin.isTTY === true && !ctx.io.env['CI'];
  if (!tty) return followPlain(runDir, ctx);
  const { attachTui } = await loadTui();
  const { phase, quit } = await attachTui({ runDir, env: ctx.io.env });
  return quit ? EXIT_OK : exitFor(phase);
}
