import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../working-tree/git-command.js';
import type { RunTree } from '../working-tree/run-tree.js';
import { bundleSnapshots, unbundleSnapshots } from '../working-tree/tree-bundle.js';
import type { RunRecordSink } from './mirrored-run-recorder.js';
import { PANEL_DIFF, PANEL_DIFF_BYTES } from './stage-panel-files.js';

/**
 * Where a store puts a run's snapshot bundles in its run directory before the run continues there
 * (numbered files, taken in in name order, then removed).
 */
export const TREE_BUNDLES_DIR = 'tree-bundles';

/**
 * How a run's snapshots travel to the machine that continues it (decision 0331): each snapshot's new
 * objects handed on before the checkpoint that names it, and brought in before the next node starts
 * where this machine lacks them.
 */
export interface TreeCarrier {
  /** Hand on what the snapshot `commit` (after `nodeId`; none: the run's start) added; resolves once handed. */
  carry(tree: RunTree, commit: string, parent: string | undefined, nodeId: string | undefined): Promise<void>;
  /** Make sure the snapshots up to `head` are in the run's git directory (a run continued here). */
  bring(tree: RunTree, head: string): Promise<void>;
}

/** Git options a push or fetch to a run's remote needs: the transports the engine's commands otherwise refuse. */
const REMOTE_TRANSPORTS = [
  'protocol.https.allow=always',
  'protocol.ssh.allow=always',
  'protocol.git.allow=always',
  'core.sshCommand=ssh',
].flatMap((setting) => ['-c', setting]);

/**
 * The carrier of a run with a record sink that keeps bundles (the PostgreSQL store), or a git remote
 * (`remote`, which then holds the snapshots instead); undefined when the run's tree stays on this machine.
 * A sink that keeps stage files gets each node's diff from the snapshots either way.
 */
export function treeCarrier(
  runDir: string,
  sink: RunRecordSink | undefined,
  remote?: string,
): TreeCarrier | undefined {
  const storeBundles = sink?.treeBundle ? sink.treeBundle.bind(sink) : undefined;
  if (!remote && !storeBundles) return undefined;
  // The newest snapshot whose objects were handed on: the next bundle holds what came after it.
  let carried: string | undefined;
  return {
    async carry(tree, commit, parent, nodeId) {
      if (remote)
        await git(tree.place, [...REMOTE_TRANSPORTS, 'push', '--quiet', remote, `+${commit}:${tree.ref}`]);
      else if (storeBundles) storeBundles(commit, await bundleSnapshots(tree, carried, commit));
      carried = commit;
      if (nodeId && sink?.stageFiles)
        sink.stageFiles(nodeId, { [PANEL_DIFF]: await nodeDiff(tree, parent, commit) });
    },
    async bring(tree, head) {
      const folder = join(runDir, TREE_BUNDLES_DIR);
      try {
        if (!(await tree.has(head))) {
          if (remote)
            await git(tree.place, [
              ...REMOTE_TRANSPORTS,
              'fetch',
              '--quiet',
              remote,
              `+${tree.ref}:${tree.ref}`,
            ]);
          else if (existsSync(folder))
            for (const name of readdirSync(folder).sort())
              await unbundleSnapshots(tree, readFileSync(join(folder, name)));
        }
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
      carried = head;
    },
  };
}

/** What a node changed, as the node panel shows it: the diff from the snapshot before, cut where a reader stops. */
async function nodeDiff(tree: RunTree, parent: string | undefined, commit: string): Promise<string> {
  let diff: string;
  try {
    diff = await tree.diff(parent, commit);
  } catch (error) {
    // Larger than git's output is read (16 MB): the snapshot itself travelled; the panel says why no diff.
    return `(no diff shown: ${error instanceof Error ? error.message : String(error)})`;
  }
  return diff.length > PANEL_DIFF_BYTES ? `${diff.slice(0, PANEL_DIFF_BYTES)}\n… (cut)` : diff;
}
