import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { confirm } from '../actors/interviewers/confirm.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { loadPipeline } from '../compiler/compile.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { readCheckpoint } from './checkpoint.js';
import { locateRun } from './locate-run.js';

export type RerunDecision = { needed: false } | { needed: true; node: string; rerun: boolean };

/**
 * Before a resume: when the run stopped inside a node marked `idempotent=false` (it crashed, or was
 * stopped hard, while the node ran), ask the interviewer whether to run that node again, and record
 * the answer in `events.jsonl` (`resume.rerun_confirmed` / `resume.rerun_declined`). A run that paused
 * cleanly between nodes, or whose next node may safely repeat, needs no question.
 *
 * @example
 * const decision = await confirmInterruptedRerun({ from: runDir, interviewer });
 * if (decision.needed && !decision.rerun) return; // leave the run as it is
 */
export async function confirmInterruptedRerun(options: {
  from: string;
  dotFile?: string;
  interviewer: Interviewer;
  signal?: AbortSignal;
}): Promise<RerunDecision> {
  const found = locateRun(options.from, options.dotFile);
  const checkpoint = readCheckpoint(found.checkpointPath);
  if (checkpoint.status !== 'running' && checkpoint.status !== 'cancelled') return { needed: false };
  const nodeId = checkpoint.current_node;
  const node = loadPipeline(found.source, { file: found.file }).graph.nodes.find((n) => n.id === nodeId);
  if (node?.attrs.idempotent !== false) return { needed: false };
  const rerun = await confirm(
    options.interviewer,
    `The run was interrupted in "${nodeId}", which is marked idempotent=false (running it twice may repeat its effects). Run it again?`,
    options.signal ?? new AbortController().signal,
    nodeId,
  ).catch((error: unknown) => {
    throw new AttractorError(
      'RESUME_NEEDS_CONFIRMATION',
      `"${nodeId}" is marked idempotent=false and was interrupted; confirm running it again (answer on a terminal, or pass --auto-approve): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  });
  const event: PipelineEvent = {
    kind: rerun ? 'resume.rerun_confirmed' : 'resume.rerun_declined',
    node_id: nodeId,
    data: { idempotent: false },
    timestamp: new Date().toISOString(),
  };
  appendFileSync(join(found.runDir, 'events.jsonl'), `${JSON.stringify(event)}\n`);
  return { needed: true, node: nodeId, rerun };
}
