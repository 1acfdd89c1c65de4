import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PipelineGraph } from '../compiler/ir.js';
import { isStartNode } from '../compiler/validate/graph-index.js';
import { parseVarsDeclaration } from '../compiler/vars/pipeline-vars.js';
import { stageDirFor } from '../machines/stage-dir.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { AttractorError } from '../shared/errors.js';
import type { Checkpoint } from './checkpoint.js';
import { saveCheckpoint } from './checkpoint-files.js';
import { checkpointAtEntry, checkpointAtStart } from './checkpoint-history.js';
import { assertRunDirFree } from './resolve-run-dir.js';
import { makeRunFolder, newRunId } from './run-directory.js';

export interface ForkOptions {
  /** The run directory forked. */
  from: string;
  /** The node the fork starts at: it runs as the original had just reached it. */
  node: string;
  /** The pipeline the fork runs, compiled (the original's copy, or a changed one naming the same nodes). */
  graph: PipelineGraph;
  /** Its DOT source, which the fork's `pipeline.dot` keeps. */
  source: string;
  /** Where its relative paths resolve (`@file` prompts, child pipelines). */
  file?: string;
  /** Values to change: a declared parameter's name sets `vars.<name>`, any other key that context key. */
  set?: Readonly<Record<string, string>>;
  /** The new run directory (default: beside the original, named by the new id). */
  runDir?: string;
  runId?: string;
  /** Who makes the fork (`forked_by`, and the fork's `started_by`; decision 0410). */
  by?: string;
}

/** A fork made on disk, ready for `resumePipeline({ from: runDir })`. */
export interface ForkedRun {
  runId: string;
  runDir: string;
  origin: { run_id: string; run_dir: string; node: string };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * A new run directory holding a run that stands where the original stood as it entered `node`
 * (decision 0010): that checkpoint (its context with `set` applied, its completed nodes, visit counts and
 * retries), the stage folders of the nodes completed by then, the artifacts, the pipeline, and a manifest
 * naming its origin. Its cost starts at zero. The original is only read.
 */
export function forkRun(options: ForkOptions): ForkedRun {
  const from = resolve(options.from);
  const manifest = readManifest(from);
  const { graph, node } = options;
  if (!graph.nodes.some((n) => n.id === node)) {
    throw new AttractorError(
      'FORK_UNKNOWN_NODE',
      `the pipeline has no node "${node}" to fork from; its nodes: ${graph.nodes.map((n) => n.id).join(', ')}.`,
    );
  }
  refuseUnknownParameters(graph, options.set ?? {});
  const forkedNode = graph.nodes.find((n) => n.id === node);
  const { entry, reached } =
    forkedNode && isStartNode(forkedNode) ? checkpointAtStart(from, node) : checkpointAtEntry(from, node);
  if (!entry) {
    throw new AttractorError(
      'FORK_NODE_NOT_REACHED',
      reached.length === 0
        ? `run ${manifest.run_id} has no checkpoint history to fork from (it never passed its first node, or an older attractor ran it).`
        : `run ${manifest.run_id} never reached "${node}", so there is no state to fork from; it reached: ${reached.join(', ')}.`,
    );
  }
  const runId = options.runId ?? newRunId();
  const runDir = resolve(options.runDir ?? join(dirname(from), runId));
  assertRunDirFree(runDir, options.runDir ?? runDir);
  makeRunFolder(runDir);
  copyRecords(from, runDir, entry, graph);
  const origin = { run_id: manifest.run_id, run_dir: from, node };
  const { usage: _usage, failure: _failure, ...kept } = entry;
  const checkpoint: Checkpoint = {
    ...kept,
    run_id: runId,
    run_dir: runDir,
    timestamp: Date.now(),
    // Paused between nodes, as far as a resume can tell: the fork point has not started, so a node
    // marked idempotent=false there is not "interrupted" and asks for no confirmation.
    status: 'paused',
    current_node: node,
    context: { ...entry.context, ...overrides(graph, options.set ?? {}) },
    source_sha256: sha256(options.source),
  };
  writeFileAtomic(join(runDir, 'pipeline.dot'), options.source);
  // The fork is a new run: who started the original did not start it.
  const { source_file: _file, started_by: _by, ...rest } = manifest;
  writeFileAtomic(
    join(runDir, 'manifest.json'),
    `${JSON.stringify(
      {
        ...rest,
        run_id: runId,
        ...(options.file ? { source_file: resolve(options.file) } : {}),
        source_sha256: checkpoint.source_sha256,
        started_at: new Date().toISOString(),
        forked_from: origin,
        ...(options.by !== undefined ? { started_by: options.by, forked_by: options.by } : {}),
      },
      null,
      2,
    )}\n`,
  );
  // Last: a folder with a checkpoint.json is a run a resume can continue.
  saveCheckpoint(join(runDir, 'checkpoint.json'), checkpoint);
  return { runId, runDir, origin };
}

function readManifest(runDir: string): Record<string, unknown> & { run_id: string } {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'));
  } catch {
    throw new AttractorError('FORK_NOT_A_RUN', `${runDir} holds no run to fork (no readable manifest.json).`);
  }
  const id = (manifest as { run_id?: unknown } | null)?.run_id;
  if (typeof id !== 'string')
    throw new AttractorError('FORK_NOT_A_RUN', `${runDir}/manifest.json names no run_id.`);
  return manifest as Record<string, unknown> & { run_id: string };
}

/**
 * `vars.<name>` is where a declared parameter's value lives: a key naming an undeclared one would give
 * the fork a parameter its pipeline does not have, so it is refused like `--set` on a run refuses it.
 */
function refuseUnknownParameters(graph: PipelineGraph, set: Readonly<Record<string, string>>): void {
  const declared = parseVarsDeclaration(graph.attrs.vars).map((v) => v.name);
  for (const key of Object.keys(set)) {
    const name = key.startsWith('vars.') ? key.slice('vars.'.length) : undefined;
    if (name === undefined || declared.includes(name)) continue;
    throw new AttractorError(
      'FORK_UNKNOWN_PARAMETER',
      `"${key}" names a pipeline parameter the pipeline does not declare; ${declared.length > 0 ? `it declares: ${declared.join(', ')}` : 'it declares none (graph attribute vars)'}.`,
    );
  }
}

/** The context keys `--set` changes: declared parameters live under `vars.`, the rest as named. */
function overrides(graph: PipelineGraph, set: Readonly<Record<string, string>>): Record<string, string> {
  const declared = new Set(parseVarsDeclaration(graph.attrs.vars).map((v) => v.name));
  return Object.fromEntries(
    Object.entries(set).map(([key, value]) => [declared.has(key) ? `vars.${key}` : key, value]),
  );
}

/**
 * The records of what ran before the fork point: every node folder of the loop restarts before it,
 * the folders of the nodes completed by then in its own, and the artifacts.
 */
function copyRecords(from: string, to: string, entry: Checkpoint, graph: PipelineGraph): void {
  const copy = (source: string, target: string): void => {
    if (existsSync(source)) cpSync(source, target, { recursive: true, errorOnExist: false });
  };
  copy(join(from, 'artifacts'), join(to, 'artifacts'));
  const completed = new Set(entry.completed_nodes);
  for (let restart = 0; restart <= entry.restarts; restart++) {
    for (const n of graph.nodes) {
      if (restart === entry.restarts && !completed.has(n.id)) continue;
      copy(stageDirFor(from, n.id, restart), stageDirFor(to, n.id, restart));
    }
  }
}
