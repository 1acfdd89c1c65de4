import { rmSync } from 'node:fs';
import { loadPipeline } from '../compiler/compile.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { forkRun } from '../run/fork-run.js';
import { type ForkedTree, forkTree } from '../run/fork-tree.js';
import { newRunId } from '../run/run-directory.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import type { Identity } from '../shared/identity.js';
import { ApiError } from './api-error.js';
import type { RunRecord } from './run-record.js';
import type { Submission } from './run-service.js';
import type { ListRunsQuery, RunPage, RunStore } from './run-store.js';
import { INLINE_SOURCE } from './server-read-scope.js';

/** Refuse new work while the server drains. */
export function refuseWhileDraining(draining: boolean): void {
  if (draining) throw new ApiError(503, 'DRAINING', 'the server is shutting down and takes no new runs.');
}

/**
 * A server's run records, as every kind of server keeps them: read, listed, created for a submission
 * or a fork, reopened for a resume. Where a run then executes is the caller's business.
 */
export class RunRecords {
  readonly #store: RunStore;
  readonly #readScope: (sourceFile: string) => ReadScope;

  constructor(store: RunStore, readScope: (sourceFile: string) => ReadScope) {
    this.#store = store;
    this.#readScope = readScope;
  }

  get store(): RunStore {
    return this.#store;
  }

  get(id: string): RunRecord {
    const record = this.#store.get(id);
    if (!record) throw new ApiError(404, 'RUN_NOT_FOUND', `no pipeline run ${id}.`);
    return record;
  }

  list(query: ListRunsQuery): RunPage {
    return this.#store.list(query);
  }

  /** Resolves once what the store was told (of run `id`, when given) is durable (the store writes behind). */
  async persisted(id?: string): Promise<void> {
    await this.#store.flush?.(id);
  }

  /** The pipeline as run `id` runs it: compiled with its goal and its parameters' values. */
  graph(id: string): PipelineGraph {
    const record = this.get(id);
    const { goal, vars } = record.options;
    return loadPipeline(this.#store.source(id), {
      file: record.source_file,
      readScope: this.#readScope(record.source_file),
      ...definedFields({ goal, vars }),
    }).graph;
  }

  /** The queued record of an accepted submission whose pipeline is `graph`. */
  create(submission: Submission, graph: PipelineGraph): RunRecord {
    const now = new Date().toISOString();
    const record: RunRecord = {
      id: newRunId(),
      name: graph.name,
      // Compiled with the submission's goal and values: its parameters' values stand in for `$name`.
      goal: graph.attrs.goal ?? '',
      status: 'queued',
      created_at: now,
      updated_at: now,
      source_file: submission.sourceFile,
      options: submission.options,
      started_by: submission.startedBy,
    };
    this.#store.create(record, submission.source);
    return this.get(record.id);
  }

  /**
   * A new queued run standing where run `id` stood as it entered `fromNode` (`forkRun`): 409 before the
   * run has a run directory, 422 for a node the pipeline lacks or the run never reached. With
   * `allowTreeDir`, the fork's files as its node found them are restored into a new folder beside the
   * original's, which that function must allow (decision 0331); without it the fork has no folder of its own.
   */
  async fork(
    id: string,
    fromNode: string,
    set: Readonly<Record<string, string>>,
    by: Identity,
    allowTreeDir?: (dir: string) => void,
  ): Promise<RunRecord> {
    const record = this.get(id);
    if (!record.run_dir)
      throw new ApiError(
        409,
        'RUN_NOT_STARTED',
        `run ${id} is ${record.status} and has no state to fork yet.`,
      );
    const source = this.#store.source(id);
    const forkId = newRunId();
    let tree: ForkedTree | undefined;
    try {
      const forked = forkRun({
        from: record.run_dir,
        node: fromNode,
        graph: this.graph(id),
        source,
        ...(record.source_file !== INLINE_SOURCE ? { file: record.source_file } : {}),
        set,
        runDir: this.#store.runDirFor(forkId),
        runId: forkId,
        by,
      });
      if (allowTreeDir)
        tree = await forkTree({ fork: forked, place: { beside: true }, allow: allowTreeDir }).catch(
          (error: unknown) => {
            rmSync(forked.runDir, { recursive: true, force: true });
            throw error;
          },
        );
    } catch (error) {
      if (AttractorError.isInstance(error) && isForkRefusal(error.code))
        throw new ApiError(422, error.code, error.describe());
      throw error;
    }
    const now = new Date().toISOString();
    const { name, goal, source_file } = record;
    const options = tree ? { ...record.options, working_dir: tree.workDir } : record.options;
    const fork = {
      ...{ id: forkId, name, goal, source_file, options, created_at: now, updated_at: now },
      started_by: by,
      forked_by: by,
    };
    this.#store.create({ ...fork, status: 'queued', run_dir: this.#store.runDirFor(forkId) }, source);
    return this.get(forkId);
  }

  /** Queue run `id` again (a resume `by` someone): the previous attempt's ending is not the next one's. */
  reopen(id: string, by: Identity | undefined): RunRecord {
    return this.#store.update(id, {
      status: 'queued',
      quality: undefined,
      failure: undefined,
      stopped_at: undefined,
      cancelled_by: undefined,
      resumed_by: by,
    });
  }
}

/** What a fork refuses for a reason the caller can fix (422): the node, the fork's folder, a lost snapshot. */
function isForkRefusal(code: string): boolean {
  return code.startsWith('FORK_') || code.startsWith('WORKDIR_') || code === 'TREE_SNAPSHOT_MISSING';
}
