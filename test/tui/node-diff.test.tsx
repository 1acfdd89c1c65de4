import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Text } from 'ink';
import { describe, expect, it } from 'vitest';
import { ActivityPane } from '../../src/tui/ActivityPane.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import type { NodeView } from '../../src/tui/run-state.js';
import { useNodeDiff } from '../../src/tui/use-node-diff.js';
import { gitAvailable } from '../../src/working-tree/git-available.js';
import { openRunTree } from '../../src/working-tree/run-tree.js';
import { tempDir } from '../helpers/temp-dir.js';
import { renderAt } from './render-at.js';
import { ev, graphOf } from './tui-fixtures.js';

function Stat({ runDir, commit, whole = false }: { runDir: string; commit: string; whole?: boolean }) {
  const lines = useNodeDiff(runDir, commit, 8, whole);
  return <Text>{lines.join('\n')}</Text>;
}

describe("the activity pane's node diff", () => {
  it("reads a node's diffstat from the run's snapshot and shows it", async () => {
    const root = tempDir('attractor-tui-diff-');
    const work = join(root, 'work');
    mkdirSync(work);
    const runDir = join(root, 'run');
    const tree = await openRunTree({ workDir: work, runDir, runId: 'r' }, await gitAvailable());
    await tree?.snapshot('start');
    writeFileSync(join(work, 'health.ts'), 'export const ok = true;\n');
    const commit = (await tree?.snapshot('node implement'))?.commit ?? '';
    const app = renderAt(<Stat runDir={runDir} commit={commit} />, 80);
    await expect.poll(() => app.frame()).toContain('health.ts | 1 +');
    expect(app.frame()).toContain('1 file changed, 1 insertion(+)');
    // Expanded (Enter): the diff itself, as the web view's node panel shows it, cut at the line budget.
    for (let n = 0; n < 12; n++)
      writeFileSync(join(work, 'health.ts'), `export const ok = ${n};\n${'x\n'.repeat(n)}`);
    const bigger = (await tree?.snapshot('node again'))?.commit ?? '';
    const whole = renderAt(<Stat runDir={runDir} commit={bigger} whole />, 80);
    await expect.poll(() => whole.frame()).toContain('diff --git a/health.ts b/health.ts');
    expect(whole.frame()).toContain('+export const ok = 11;');
    expect(whole.frame()).toContain('-export const ok = true;');
    expect(whole.frame()).toMatch(/… \d+ more lines/);

    const graph = graphOf();
    const state = reduceRunState(
      graph,
      initialRunState(graph),
      ev('node.complete', 'plan', { status: 'success', commit }),
    );
    expect(state.nodes['plan']?.commit).toBe(commit);
    const pane = renderAt(
      <ActivityPane
        node={state.nodes['plan'] as NodeView}
        width={80}
        rows={10}
        expanded={false}
        frame={0}
        diffStat={[' health.ts | 1 +', ' 1 file changed, 1 insertion(+)']}
      />,
      80,
    );
    expect(pane.frame()).toMatch(/health\.ts \| 1 \+[\s\S]*1 file changed/);
  });
});
