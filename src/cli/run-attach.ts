import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../run/run-types.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
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
function finalLines(event: PipelineEvent, printer: EventPrinter, runDir: string, ctx: CliContext): string {
  const d = event.data;
  const status = String(d['status']);
  const list = (key: string): string[] => (Array.isArray(d[key]) ? d[key].map(String) : []);
  const reason = typeof d['reason'] === 'string' ? d['reason'] : undefined;
  const stoppedAt = typeof d['stopped_at'] === 'string' ? d['stopped_at'] : undefined;
  const shown = displayPath(ctx.io.cwd, runDir);
  if (status !== 'completed' && status !== 'failed')
    return `Interrupted${stoppedAt ? ` at ${stoppedAt}` : ''}${reason ? `: ${reason}` : ''}. Resume with: attractor resume ${JSON.stringify(shown)}\n`;
  const result: RunResult = {
    status,
    quality: d['quality'] === 'clean' || d['quality'] === 'degraded' ? d['quality'] : 'failed',
    runId: '',
    runDir,
    ...(stoppedAt ? { stoppedAt } : {}),
    ...(status === 'failed' && reason
      ? { failure: { reason, ...(typeof d['failed_at'] === 'string' ? { node: d['failed_at'] } : {}) } }
      : {}),
    ...(status === 'completed' && reason && stoppedAt ? { deadEnd: { node: stoppedAt, reason } } : {}),
    context: {},
    completedNodes: [],
    failedNodes: list('failed_nodes'),
    recoveredNodes: list('recovered_nodes'),
    partialNodes: list('partial_nodes'),
  };
  const summary = formatRunSummary(result, {
    retried: printer.retried(),
    reasonShown: reason !== undefined && printer.shown(reason),
    runDir: shown,
    colors: ctx.colors,
  });
  const cost = formatRunCost(d['usage'], printer.models());
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
    let event: PipelineEvent;
    try {
      event = JSON.parse(line) as PipelineEvent;
    } catch {
      return;
    }
    printer.print(event);
    if (event.kind === 'pipeline.finalize' && code === undefined) {
      ctx.io.stdout(finalLines(event, printer, runDir, ctx));
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
