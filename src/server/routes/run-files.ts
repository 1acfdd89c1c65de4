import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Hono } from 'hono';
import { graphToJson } from '../../compiler/graph-to-json.js';
import { newestJournalCheckpoint } from '../../run/checkpoint-journal.js';
import { PANEL_DIFF } from '../../run/stage-panel-files.js';
import { definedFields } from '../../shared/defined-fields.js';
import type { NodeDetailsJson } from '../../shared/server-responses.js';
import { renderSvg } from '../../svg/render-svg.js';
import { snapshotDiff } from '../../working-tree/snapshot-diff.js';
import { ApiError } from '../api-error.js';
import { acceptedEncoding, compressBody } from '../compressed-body.js';
import { NODE_STATUS_FILL, settleNodeStatuses } from '../node-statuses.js';
import type { RunService } from '../run-service.js';

const readIfExists = (file: string): string | undefined =>
  existsSync(file) ? readFileSync(file, 'utf8') : undefined;

/** A tool's logs can be long; the node view shows their end, as the run's context does. */
const LOG_TAIL_BYTES = 64 * 1024;

function readTail(file: string): string | null {
  if (!existsSync(file)) return null;
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    const length = Math.min(size, LOG_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return (size > length ? '…' : '') + buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** A diff reads from its start; a huge one is cut where a person would stop reading anyway. */
const DIFF_HEAD_BYTES = 512 * 1024;

/** Where runs before snapshots (decision 0072) kept an agent visit's changes, in its stage folder. */
const LEGACY_DIFF_FILE = 'diff.patch';

/**
 * A node's latest changes to the working folder, from the run's snapshots (decision 0331); a run from
 * before them keeps its agents' `diff.patch`. Cut at `DIFF_HEAD_BYTES`.
 */
async function nodeDiff(
  dir: string,
  stage: string,
  checkpoint: Record<string, unknown> | undefined,
  node: string,
): Promise<string | null> {
  const commits = checkpoint?.['tree_commits'];
  const commit = typeof commits === 'object' && commits !== null ? Reflect.get(commits, node) : undefined;
  if (typeof commit === 'string') {
    try {
      const diff = await snapshotDiff(dir, { commit });
      if (diff !== undefined)
        return diff.length > DIFF_HEAD_BYTES
          ? `${diff.slice(0, DIFF_HEAD_BYTES)}\n… (cut: attractor diff ${dir} --node ${node} prints it whole)`
          : diff;
    } catch {
      // A snapshot gone (a pruned repository): the stage folder may still have a diff.
    }
  }
  return readHead(path.join(stage, LEGACY_DIFF_FILE));
}

function readHead(file: string): string | null {
  if (!existsSync(file)) return null;
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(statSync(file).size, DIFF_HEAD_BYTES + 1));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return read > DIFF_HEAD_BYTES
      ? `${buffer.subarray(0, DIFF_HEAD_BYTES).toString('utf8')}\n… (cut: the whole diff is ${file})`
      : buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** A running run's newest checkpoint can be in its journal only (decision 0470). */
const readCheckpointJson = (dir: string): Record<string, unknown> | undefined => {
  const journaled = newestJournalCheckpoint(dir);
  if (journaled) return journaled;
  const text = readIfExists(path.join(dir, 'checkpoint.json'));
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
};

function runDirOf(manager: RunService, id: string): string | undefined {
  return manager.get(id).run_dir;
}

/** The run's newest checkpoint: the database's for a run on a worker, else its run directory's. */
async function checkpointOf(manager: RunService, id: string): Promise<Record<string, unknown> | undefined> {
  const stored = (await manager.stored(id, 'checkpoint')) as Record<string, unknown> | undefined;
  if (stored) return stored;
  const dir = runDirOf(manager, id);
  return dir ? readCheckpointJson(dir) : undefined;
}

/** What the node panel shows of a stage, from the files a database keeps of it. */
function storedPanel(status: unknown, files: Readonly<Record<string, string>>) {
  return {
    status: status ?? null,
    prompt: files['prompt.md'] ?? null,
    response: files['response.md'] ?? null,
    stdout: files['stdout.log'] ?? null,
    stderr: files['stderr.log'] ?? null,
    diff: files[PANEL_DIFF] ?? null,
  };
}

/** What the node panel shows of a stage, from its folder in the run directory (none: nothing yet). */
function diskPanel(stored: unknown, stage: string | undefined, diff: string | null) {
  const status = stage ? readIfExists(path.join(stage, 'status.json')) : undefined;
  return {
    status: stored ?? (status ? JSON.parse(status) : null),
    prompt: stage ? (readIfExists(path.join(stage, 'prompt.md')) ?? null) : null,
    response: stage ? (readIfExists(path.join(stage, 'response.md')) ?? null) : null,
    // A tool node's command output, kept whole in its stage folder.
    stdout: stage ? readTail(path.join(stage, 'stdout.log')) : null,
    stderr: stage ? readTail(path.join(stage, 'stderr.log')) : null,
    // What the node changed in the run's working folder, its latest visit's.
    diff,
  };
}

/** Read-only views of a run's files: checkpoint, context, one node's status/prompt/response, the graph. */
export function registerRunFileRoutes(app: Hono, manager: RunService): void {
  app.get('/pipelines/:id/checkpoint', async (c) => {
    const checkpoint = await checkpointOf(manager, c.req.param('id'));
    if (checkpoint === undefined)
      throw new ApiError(404, 'NO_CHECKPOINT', 'the run has not written a checkpoint yet.');
    return c.json(checkpoint);
  });

  app.get('/pipelines/:id/context', async (c) => {
    const id = c.req.param('id');
    const context = (await checkpointOf(manager, id))?.['context'] ?? {};
    return c.json({ pipeline_id: id, event_count: manager.hub(id).eventCount, context });
  });

  app.get('/pipelines/:id/nodes/:node', async (c) => {
    const id = c.req.param('id');
    await manager.catchUp(id);
    const node = c.req.param('node');
    if (!manager.graph(id).nodes.some((n) => n.id === node)) {
      throw new ApiError(404, 'NODE_NOT_FOUND', `pipeline ${id} has no node "${node}".`);
    }
    const status = await manager.stored(id, { stage: node });
    // None kept yet (a node under way, a run recorded before they were): its folder, when it is here.
    const files = await manager.storedFiles(id, node);
    const kept = files && Object.keys(files).length > 0 ? files : undefined;
    const dir = runDirOf(manager, id);
    const stage = dir ? path.join(dir, node) : undefined;
    return c.json({
      node_id: node,
      state: settleNodeStatuses(manager.nodeStatuses(id), manager.get(id).status)[node] ?? 'pending',
      // A run executed on a worker: the database holds what the panel shows, whichever machine ran it.
      ...(kept
        ? storedPanel(status, kept)
        : diskPanel(
            status,
            stage,
            dir && stage ? await nodeDiff(dir, stage, await checkpointOf(manager, id), node) : null,
          )),
    } satisfies NodeDetailsJson);
  });

  app.get('/pipelines/:id/graph', async (c) => {
    const id = c.req.param('id');
    const graph = manager.graph(id);
    await manager.catchUp(id);
    const statuses = settleNodeStatuses(manager.nodeStatuses(id), manager.get(id).status);
    const wantsSvg =
      c.req.query('format') === 'svg' || (c.req.header('accept') ?? '').includes('image/svg+xml');
    if (!wantsSvg) return c.json({ ...graphToJson(graph), statuses });
    const fill = Object.fromEntries(Object.entries(statuses).map(([node, s]) => [node, NODE_STATUS_FILL[s]]));
    const svg = Buffer.from(await renderSvg(graph, { fill }));
    // A drawing is mostly repeated markup: a 200-node one is 130 KB, about a tenth compressed.
    const encoding = acceptedEncoding(c.req.header('accept-encoding'));
    return c.body(new Uint8Array(encoding ? compressBody(svg, encoding) : svg), 200, {
      'content-type': 'image/svg+xml; charset=utf-8',
      vary: 'Accept-Encoding',
      ...definedFields({ 'content-encoding': encoding }),
    });
  });
}
