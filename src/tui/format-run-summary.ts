import { formatCost } from './format-amount.js';
import { formatDuration } from './format-duration.js';
import { phaseLabel } from './Header.js';
import { runElapsedMs } from './run-elapsed.js';
import type { NodeView, RunState } from './run-state.js';
import { statusMark } from './status-mark.js';

/**
 * The plain text left on screen when the TUI closes: one line per node that ran (mark, name,
 * duration, cost, edge taken), then the totals. No colours, so it reads the same in any scrollback.
 */
export function formatRunSummary(state: RunState, now: number): string {
  const ran = state.order
    .map((id) => state.nodes[id])
    .filter((n): n is NodeView => n !== undefined && n.status !== 'pending');
  const nameWidth = Math.min(28, Math.max(8, ...ran.map((n) => n.label.length)));
  const lines = ran.map((node) => {
    // A node the run stopped in: a spinner frozen in the scrollback would say it still runs.
    const mark = node.status === 'running' ? '■' : statusMark(node.status, 0).mark;
    const name =
      node.label.length > nameWidth ? `${node.label.slice(0, nameWidth - 1)}…` : node.label.padEnd(nameWidth);
    const time =
      node.durationMs !== undefined
        ? formatDuration(node.durationMs)
        : node.status === 'running'
          ? 'stopped'
          : '';
    const cost = node.costUsd > 0 ? formatCost(node.costUsd) : '';
    return `  ${mark} ${name}  ${time.padStart(7)}  ${cost.padStart(8)}${node.next ? `  → ${node.next}` : ''}`.trimEnd();
  });
  const elapsed = runElapsedMs(state, now);
  const head = `${state.name}: ${phaseLabel(state).text} in ${formatDuration(elapsed)}, ${formatCost(state.usage.costUsd)}`;
  const failure =
    state.failure && state.phase === 'failed'
      ? [`  ${state.failure}`]
      : state.endReason && state.phase === 'done'
        ? [`  ${state.endReason}`]
        : [];
  return `${[head, ...lines, ...failure].join('\n')}\n`;
}
