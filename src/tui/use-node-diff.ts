import { useEffect, useState } from 'react';
import { snapshotDiff } from '../working-tree/snapshot-diff.js';

/**
 * The diffstat of a node's snapshot (its changes to the working folder, from the run's snapshots):
 * at most `count` lines, the summary line last. Read once per commit, off the render.
 */
export function useNodeDiff(runDir: string | undefined, commit: string | undefined, count: number): string[] {
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    setLines([]);
    if (runDir === undefined || commit === undefined) return;
    let live = true;
    snapshotDiff(runDir, { commit, stat: true })
      .then((text) => {
        if (!live || text === undefined) return;
        const all = text.split('\n').filter((line) => line.trim() !== '');
        const summary = all.at(-1);
        const files = all.slice(0, -1);
        const shown = files.length > count - 1 ? [...files.slice(0, count - 2), ' …'] : files;
        setLines(summary ? [...shown, summary] : shown);
      })
      .catch(() => {
        // A snapshot gone (a pruned run): nothing to show.
      });
    return () => {
      live = false;
    };
  }, [runDir, commit, count]);
  return lines;
}
