import type { NodeView, RunState } from './run-state.js';

/** One line of the evidence shown beside a gate, with the colour role it is drawn in. */
export interface EvidenceLine {
  text: string;
  role?: 'heading' | 'muted' | 'added' | 'removed' | 'fail';
}

/**
 * The node whose evidence a gate shows: the one selected, else the latest finished node of the run's
 * own that has something to show (what its agent said, its output, its changes), else the last one
 * that completed. `outputs`: a tool node's output can be read (the run directory is known).
 */
export function evidenceNodeOf(
  state: RunState,
  selected: string | undefined,
  outputs: boolean,
): NodeView | undefined {
  if (selected !== undefined) return state.nodes[selected];
  for (let i = state.log.length - 1; i >= 0; i--) {
    const entry = state.log[i];
    const node = entry && !entry.branch ? state.nodes[entry.nodeId] : undefined;
    if (node && (node.activity.length > 0 || node.commit !== undefined || (outputs && node.kind === 'tool')))
      return node;
  }
  return state.lastCompleted === undefined ? undefined : state.nodes[state.lastCompleted];
}

/**
 * What a person approving at a gate should see of `node`, as lines (pure): what its agent said and the
 * tools it called, how it ended, its output, and its diff.
 */
export function evidenceLines(
  node: NodeView | undefined,
  output: readonly string[],
  diff: readonly string[],
): EvidenceLine[] {
  if (!node) return [{ text: 'nothing ran before this gate', role: 'muted' }];
  const lines: EvidenceLine[] = [];
  for (const item of node.activity) {
    if (item.kind === 'text') for (const line of item.text.trimEnd().split('\n')) lines.push({ text: line });
    else if (item.kind === 'tool')
      lines.push({ text: `⚙ ${item.name}${item.status === 'error' ? ' (failed)' : ''}`, role: 'muted' });
    else if (item.kind === 'warning') lines.push({ text: `⚠ ${item.message}`, role: 'fail' });
  }
  if (node.failureReason) lines.push({ text: `failed: ${node.failureReason}`, role: 'fail' });
  if (node.notes) lines.push({ text: `notes: ${node.notes}`, role: 'muted' });
  if (output.length > 0)
    lines.push({ text: 'output:', role: 'heading' }, ...output.map((text) => ({ text })));
  if (diff.length > 0) lines.push({ text: 'changes:', role: 'heading' }, ...diff.map(diffLine));
  return lines.length > 0
    ? lines
    : [{ text: 'it said nothing, wrote no output and changed no files', role: 'muted' }];
}

function diffLine(text: string): EvidenceLine {
  if (/^\+(?!\+\+ )/.test(text)) return { text, role: 'added' };
  if (/^-(?!-- )/.test(text)) return { text, role: 'removed' };
  return { text };
}
