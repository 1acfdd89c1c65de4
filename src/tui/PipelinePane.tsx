import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { NodeRow } from './NodeRow.js';
import type { RunState } from './run-state.js';
import { statusMark } from './status-mark.js';
import { useTheme } from './use-theme.js';

export interface PipelinePaneProps {
  state: Pick<RunState, 'order' | 'nodes' | 'current'>;
  selected: string | undefined;
  frame: number;
  width: number;
  now: number;
}

/** The lines the pane's rows take: a line per node, per subgraph's label and per fan-out's branches. */
export function pipelinePaneRows(state: Pick<RunState, 'order' | 'nodes'>): number {
  let rows = 0;
  let group: string | undefined;
  for (const id of state.order) {
    const node = state.nodes[id];
    if (!node) continue;
    if (node.subgraph !== group) {
      group = node.subgraph;
      if (group !== undefined) rows += 1;
    }
    rows += node.branches && node.branches.length > 0 ? 2 : 1;
  }
  return rows;
}

/**
 * Every node of the graph at once, in flow order; subgraph members under their label; a parallel
 * node's branches as one line that fills in as they finish.
 */
export function PipelinePane({ state, selected, frame, width, now }: PipelinePaneProps) {
  const theme = useTheme();
  const rows: ReactNode[] = [];
  const inner = width - 2;
  let group: string | undefined;
  for (const id of state.order) {
    const node = state.nodes[id];
    if (!node) continue;
    if (node.subgraph !== group) {
      group = node.subgraph;
      if (group !== undefined) {
        rows.push(
          <Text key={`group-${id}`} color={theme.heading} wrap="truncate-end">
            {'  '}┌ {group}
          </Text>,
        );
      }
    }
    rows.push(
      <NodeRow
        key={id}
        node={node}
        selected={selected === id}
        current={state.current === id || node.status === 'running'}
        frame={node.status === 'running' ? frame : 0}
        indent={group !== undefined ? 2 : 0}
        width={inner}
        now={node.status === 'running' ? now : 0}
      />,
    );
    if (node.branches && node.branches.length > 0) {
      const done = node.branches.filter((b) => b.status !== 'pending' && b.status !== 'running').length;
      rows.push(
        <Box key={`branches-${id}`} marginLeft={group !== undefined ? 6 : 4} width={inner - 4}>
          <Text wrap="truncate-end">
            <Text color={theme.muted}>
              ⇉ {done}/{node.branches.length}{' '}
            </Text>
            {node.branches.map((b) => {
              const m = statusMark(b.status, frame);
              return (
                <Text key={b.id}>
                  <Text color={theme[m.role]}>{m.mark}</Text> {b.id}
                  {'  '}
                </Text>
              );
            })}
          </Text>
        </Box>,
      );
    }
  }
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.muted} paddingX={0}>
      {rows}
    </Box>
  );
}
