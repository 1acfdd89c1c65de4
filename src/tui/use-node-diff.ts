import { useEffect, useState } from 'react';
import { snapshotDiff } from '../working-tree/snapshot-diff.js';

/**
 * A node's changes to the working folder, from the run's snapshots: its diffstat (the summary line
 * last), or with `whole` the diff itself, the same the web view's node panel shows; at most `count`
 * lines either way. Read once per commit, off the render.
 */
export function useNodeDiff(
  runDir: string | undefined,
  commit: string | undefined,
  count: number,
  whole = false,
): string[] {
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    setLines([]);
    if (runDir === undefined || commit === undefined) return;
    let live = true;
    snapshotDiff(runDir, { commit, stat: !whole })
      .then((text) => {
        if (!live || text === undefined) return;
        setLines(whole ? diffHead(text, count) : statLines(text, count));
      })
      .catch(() => {
        // A snapshot gone (a pruned run): nothing to show.
      });
    return () => {
      live = false;
    };
  }, [runDir, commit, count, whole]);
  return lines;
}

function statLines(text: string, count: number): string[] {
  const all = text.split('\n').filter((line) => line.trim() !== '');
  const summary = all.at(-1);
  const files = all.slice(0, -1);
  const shown = files.length > count - 1 ? [...files.slice(0, count - 2), ' …'] : files;
  return summary ? [...shown, summary] : shown;
}

function diffHead(text: string, count: number): string[] {
  const all = text.trimEnd().split('\n');
  return all.length > count ? [...all.slice(0, count - 1), ` … ${all.length - count + 1} more lines`] : all;
}
