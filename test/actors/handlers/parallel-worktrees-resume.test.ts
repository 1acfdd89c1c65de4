import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BranchResult, HandlerServices } from '../../../src/actors/handler-types.js';
import { fanInHandler } from '../../../src/actors/handlers/fan-in.js';
import { parallelHandler } from '../../../src/actors/handlers/parallel.js';
import type {
  BranchCheckpoint,
  BranchCheckpointStore,
} from '../../../src/actors/parallel/branch-checkpoints.js';
import { branchRef, closeBranchTree, openBranchTree } from '../../../src/working-tree/branch-tree.js';
import { gitAvailable } from '../../../src/working-tree/git-available.js';
import { openRunTree, type RunTree } from '../../../src/working-tree/run-tree.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { createFakeServices, makeInput } from '../helpers/fake-services.js';
import { makeEdge, makeGraph, makeNode } from '../helpers/graph-builders.js';

/** What an interrupted earlier attempt left: branch `a` finished, its snapshot on its ref. */
async function finishedEarlier(tree: RunTree, root: string): Promise<BranchCheckpoint> {
  const base = (await tree.snapshot('earlier fan-out')).commit ?? '';
  const dir = join(root, 'earlier', 'a');
  const branch = await openBranchTree(tree, base, { dir, ref: branchRef(tree.ref, 'fan', 'a') });
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  const commit = (await branch.snapshot('branch a')).commit ?? '';
  await closeBranchTree(tree, dir);
  const result: BranchResult = {
    branchId: 'a',
    startNodeId: 'a',
    outcome: { status: 'success' },
    context: {},
    updates: {},
    stoppedAt: 'join',
    completedNodes: ['a'],
  };
  return { record: { branch_id: 'a', status: 'success', stopped_at: 'join', commit }, result };
}

/** Finished branches kept in memory: `a` as an earlier attempt left it. */
function keptBranches(earlier: BranchCheckpoint): BranchCheckpointStore {
  return {
    open: () => ({
      load: () => new Map([['a', earlier]]),
      save: async () => {},
      prepare: () => {},
      close: () => {},
      clear: () => {},
    }),
  };
}

describe('an isolated fan-out continued after an interruption', () => {
  it('merges the branch it restored (by its recorded commit) with the ones it ran', async () => {
    const root = tempDir('attractor-fan-resume-');
    const work = join(root, 'work');
    const runDir = join(root, 'run');
    mkdirSync(work);
    const tree = await openRunTree({ workDir: work, runDir, runId: 'r' }, await gitAvailable());
    if (!tree) throw new Error('git is missing');
    const earlier = await finishedEarlier(tree, root);
    const ran: string[] = [];
    const services = createFakeServices({
      workingTree: async () => tree,
      branchCheckpoints: keptBranches(earlier),
      runBranch: async (request) => {
        ran.push(request.branchId);
        writeFileSync(
          join(request.workingDir ?? '/nowhere', `${request.branchId}.txt`),
          `${request.branchId}\n`,
        );
        return {
          branchId: request.branchId,
          startNodeId: request.startNodeId,
          outcome: { status: 'success' },
          context: request.context,
          updates: {},
          stoppedAt: 'join',
          completedNodes: [request.startNodeId],
        };
      },
    } satisfies Partial<HandlerServices>);
    const graph = makeGraph({
      nodes: [
        makeNode('fan', { shape: 'component', isolation: 'worktree' }),
        makeNode('a'),
        makeNode('b'),
        makeNode('join', { shape: 'tripleoctagon' }),
      ],
      edges: [makeEdge('fan', 'a'), makeEdge('fan', 'b'), makeEdge('a', 'join'), makeEdge('b', 'join')],
    });
    const fan = graph.nodes.find((n) => n.id === 'fan');
    const join_ = graph.nodes.find((n) => n.id === 'join');
    if (!fan || !join_) throw new Error('graph');
    const fanned = await parallelHandler(makeInput({ node: fan, graph, runDir, services }));
    expect(ran).toEqual(['b']);
    const joined = await fanInHandler(
      makeInput({ node: join_, graph, runDir, services, context: fanned.context_updates ?? {} }),
    );
    expect(joined.status).toBe('success');
    expect(joined.context_updates?.['merge.branches']).toEqual(['a', 'b']);
    expect(readdirSync(work).sort()).toEqual(['a.txt', 'b.txt']);
  });
});
