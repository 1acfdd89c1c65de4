import { Box, Text } from 'ink';
import { memo } from 'react';
import { formatCost } from './format-amount.js';
import { formatDuration } from './format-duration.js';
import type { NodeView } from './run-state.js';
import { statusMark } from './status-mark.js';
import { useTheme } from './use-theme.js';

const KIND: Record<string, string> = {
  codergen: 'agent',
  'wait.human': 'gate',
  'parallel.fan_in': 'fan-in',
  'stack.manager_loop': 'manager',
  conditional: 'branch',
};

export interface NodeRowProps {
  node: NodeView;
  selected: boolean;
  /** The node the run is executing now (highlighted). */
  current: boolean;
  frame: number;
  indent: number;
  width: number;
  now: number;
}

/**
 * One node: selection caret, status mark, name, kind, duration, cost and the edge taken next. Only a
 * running node reads `frame` and `now` (PipelinePane passes 0 to the others), so the rest are not
 * rendered again every frame.
 */
export const NodeRow = memo(function NodeRow({
  node,
  selected,
  current,
  frame,
  indent,
  width,
  now,
}: NodeRowProps) {
  const theme = useTheme();
  const { mark, role } = statusMark(node.status, frame);
  const wide = width >= 100;
  // Below 60 columns the kind and cost columns go, so a row never runs past the pane's border.
  const narrow = width < 60;
  const nameWidth = Math.max(narrow ? 8 : 12, Math.floor(width * (wide ? 0.3 : 0.32)) - indent);
  const ms = node.status === 'running' && node.startedAt ? now - node.startedAt : node.durationMs;
  const retry =
    node.status === 'retrying' || (node.status === 'running' && node.attempt > 1)
      ? ` ${node.attempt}/${node.maxAttempts}`
      : '';
  return (
    <Box width={width}>
      <Text color={theme.accent}>{selected ? '▸ ' : '  '}</Text>
      <Box width={indent} />
      <Text color={theme[role]}>{mark} </Text>
      <Box width={nameWidth}>
        <Text
          wrap="truncate-end"
          bold={current}
          inverse={current}
          color={current ? theme.running : undefined}
        >
          {node.label}
        </Text>
      </Box>
      {narrow ? null : (
        <Box width={8} flexShrink={0}>
          <Text color={theme.muted} wrap="truncate-end">
            {KIND[node.kind] ?? node.kind}
          </Text>
        </Box>
      )}
      <Box width={7} flexShrink={0} justifyContent="flex-end">
        <Text color={theme.warn} wrap="truncate">
          {retry}
        </Text>
        <Text wrap="truncate">{ms !== undefined && node.status !== 'pending' ? formatDuration(ms) : ''}</Text>
      </Box>
      {narrow ? null : (
        <Box width={wide ? 10 : 9} flexShrink={0} justifyContent="flex-end">
          <Text color={theme.muted}>{node.costUsd > 0 ? formatCost(node.costUsd) : ''}</Text>
        </Box>
      )}
      <Box flexGrow={1} flexShrink={1} flexBasis={0} marginLeft={1}>
        <Text wrap="truncate-end" color={theme.muted}>
          {node.next ? `→ ${node.next}` : ''}
        </Text>
      </Box>
    </Box>
  );
});
