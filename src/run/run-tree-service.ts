import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeTree } from '../machines/machine-context.js';
import { definedFields } from '../shared/defined-fields.js';
import type { EmitEvent } from '../shared/pipeline-event.js';
import { gitAvailable } from '../working-tree/git-available.js';
import {
  missingSnapshotError,
  openRunTree,
  type RunTree,
  type TreeSnapshot,
} from '../working-tree/run-tree.js';
import { TREE_GIT_DIR } from '../working-tree/tree-git-dir.js';
import type { TreeLimits } from '../working-tree/tree-limits.js';
import type { TreeCarrier } from './carried-tree.js';

/** How a run keeps its working tree (decision 0331); `RunOptions.tree`. */
export interface RunTreeSettings {
  limits?: Partial<TreeLimits>;
  /** Folders inside the working folder never recorded (the runs root, a server's data folder). */
  exclude?: readonly string[];
  /** A resume resets the folder to the last snapshot (`--restore-tree`) rather than keeping it as it is. */
  restore?: boolean;
  /**
   * Push each snapshot to this git remote (`--git-remote`), and fetch from it what a continuation here
   * lacks, rather than carry the snapshots in the run's record sink (decision 0331).
   */
  remote?: string;
}

/** What a resume says about the files it found. */
const LISTED = 10;

export interface RunTreeService {
  /** Settles once the tree is ready for the first node (opened; a resume's restored or materialised). */
  ready: Promise<void>;
  /** Snapshot after a node; never rejects (a failure is a warning, and the run goes on). */
  snapshot(nodeId: string): Promise<NodeTree | undefined>;
  /** The run's tree once ready (undefined: git is missing). */
  tree(): RunTree | undefined;
  /** Settles once no snapshot is being taken (the run's end waits for it). */
  idle(): Promise<void>;
}

interface ServiceInput {
  workDir: string;
  runDir: string;
  runId: string;
  fresh: boolean;
  /** The newest snapshot the checkpoint names (a resume, a fork's first start). */
  head: string | undefined;
  /** The node a resume starts at (named when its snapshot is missing). */
  resumeAt: string;
  settings: RunTreeSettings;
  emit: EmitEvent;
  /** What stops the run (a snapshot a resume needs is missing). */
  fail: (error: unknown) => void;
  /** How snapshots travel to another machine; none: they stay here. */
  carrier?: TreeCarrier;
}

/** The run's working tree as the engine uses it: opened, made ready for a resume, snapshotted after nodes. */
export function createRunTreeService(input: ServiceInput): RunTreeService {
  let tree: RunTree | undefined;
  let taking: Promise<unknown> = Promise.resolve();
  const warnedOmitted = new Set<string>();
  const warn = (message: string, omitted?: string[]): void =>
    input.emit('tree.warning', { message, ...definedFields({ omitted }) });
  // A file over the size limit is named once, not at every snapshot that leaves it out.
  const report = (snapshot: TreeSnapshot, nodeId: string | undefined): NodeTree => {
    const fresh = snapshot.omitted.filter((path) => !warnedOmitted.has(path));
    for (const path of fresh) warnedOmitted.add(path);
    return nodeTreeOf({ ...snapshot, omitted: fresh }, snapshot.omitted, nodeId, warn);
  };
  // A snapshot that could not travel is still this machine's: the run goes on, and says so.
  const carry = async (on: RunTree, commit: string, parent: string | undefined, nodeId: string) => {
    try {
      await input.carrier?.carry(on, commit, parent, nodeId);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      warn(
        `the snapshot after ${nodeId} was not handed on for other machines (a continuation elsewhere lacks it): ${why}`,
      );
    }
  };
  const ready = (async () => {
    // Snapshots taken here before: their objects must be here too. None: the run comes from elsewhere.
    const ranHere = existsSync(join(input.runDir, TREE_GIT_DIR, 'HEAD'));
    tree = await openRunTree(
      {
        workDir: input.workDir,
        runDir: input.runDir,
        runId: input.runId,
        ...definedFields({ limits: input.settings.limits, exclude: input.settings.exclude }),
      },
      await gitAvailable(),
      (reason) => input.emit('tree.unavailable', { reason }),
    );
    if (!tree) return;
    const head = input.head ?? tree.head;
    // Not brought (a damaged bundle, a remote out of reach): said, and the missing snapshot stops the run.
    if (head && input.carrier)
      await input.carrier.bring(tree, head).catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        warn(`the run's snapshots could not be brought to this machine: ${why}`);
      });
    if (head && !ranHere && !input.carrier && !(await tree.has(head))) {
      // With nothing that carries snapshots between machines (a run of the CLI's or of a one-process
      // server), a run another machine executed goes on with the folder as it is here, on a history of its own.
      warn(
        `the run's snapshots are on the machine that took them: it goes on with ${input.workDir} as it is`,
      );
      startChain(tree, report(await tree.snapshot('start'), undefined));
    } else if (head) await continueFrom(tree, head, input);
    else {
      startChain(tree, report(await tree.snapshot('start'), undefined));
    }
  })().catch((error) => {
    tree = undefined;
    input.fail(error);
  });
  return {
    ready,
    tree: () => tree,
    idle: () => taking.then(() => {}),
    snapshot(nodeId) {
      const taken = (async () => {
        await ready;
        if (!tree) return undefined;
        try {
          const snapshot = await tree.snapshot(`node ${nodeId}`);
          if (snapshot.commit) await carry(tree, snapshot.commit, snapshot.parent, nodeId);
          return report(snapshot, nodeId);
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          warn(`the working tree was not snapshotted after ${nodeId}: ${why}`);
          return undefined;
        }
      })();
      taking = taken;
      return taken;
    },
  };
}

function startChain(tree: RunTree, start: NodeTree): void {
  if (start.commit) tree.markStart(start.commit);
}

/** A resume's tree: materialised where the folder does not hold it, else kept (or restored) and listed. */
async function continueFrom(tree: RunTree, head: string, input: ServiceInput): Promise<void> {
  const emit = (action: 'kept' | 'restored' | 'materialised', changed: readonly string[]) =>
    input.emit('tree.resume', {
      commit: head,
      action,
      changed: changed.slice(0, LISTED),
      more: Math.max(0, changed.length - LISTED),
    });
  if (!(await tree.has(head))) throw missingSnapshotError(input.resumeAt, head);
  if (!tree.holdsTree()) {
    await tree.materialise(head);
    if (!input.fresh) emit('materialised', []);
    return;
  }
  if (input.fresh) {
    // A fork's first start in a folder made for it: the tree is the one it was forked at.
    tree.adopt(head);
    return;
  }
  const changed = await tree.changedSince(head);
  if (input.settings.restore && changed.length > 0) await tree.restore(head);
  else tree.adopt(head);
  emit(input.settings.restore && changed.length > 0 ? 'restored' : 'kept', changed);
}

/** A snapshot as the machine records it (`omitted`: all it left out), warning of what is new in `snapshot`. */
function nodeTreeOf(
  snapshot: TreeSnapshot,
  omitted: readonly string[],
  nodeId: string | undefined,
  warn: (message: string, omitted?: string[]) => void,
): NodeTree {
  const where = nodeId ? `after ${nodeId}` : 'at the start';
  if (snapshot.omitted.length > 0)
    warn(
      `files over the size limit were left out of the snapshot ${where}: ${snapshot.omitted.join(', ')}`,
      snapshot.omitted,
    );
  if (snapshot.skipped)
    warn(
      snapshot.skipped === 'budget'
        ? `the snapshot ${where} was skipped: its new files exceed the snapshot budget`
        : `the snapshot ${where} was skipped: the folder holds more files than the limit`,
    );
  return {
    ...(snapshot.commit ? { commit: snapshot.commit } : {}),
    ...definedFields({ skipped: snapshot.skipped }),
    ...(omitted.length > 0 ? { omitted: [...omitted] } : {}),
  };
}
