import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { CliContext } from './cli-context.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import { formatEventLine } from './format-event-line.js';
import { loadTui } from './load-tui.js';

const exitFor = (phase: string): number =>
  phase === 'done' ? EXIT_OK : phase === 'failed' ? EXIT_FAILURE : EXIT_INTERRUPTED;

/** Plain lines for a pipe: replay, follow until pipeline.finalize. */
async function followPlain(runDir: string, ctx: CliContext): Promise<number> {
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
    const text = formatEventLine(event, ctx.colors);
    if (text !== undefined) ctx.io.stdout(`${text}\n`);
    if (event.kind === 'pipeline.finalize' && code === undefined) {
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
