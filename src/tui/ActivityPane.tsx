import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { Markdown } from './Markdown.js';
import { PlanView, planRows } from './PlanView.js';
import type { NodeView } from './run-state.js';
import { ThoughtLine, thoughtRows } from './ThoughtLine.js';
import { ToolCallLine } from './ToolCallLine.js';
import { tailLines } from './tail-lines.js';
import { plainLines, useMarkdown } from './use-markdown.js';
import { useTheme } from './use-theme.js';

export interface ActivityPaneProps {
  node: NodeView | undefined;
  width: number;
  /** Rows available for the conversation; older items scroll out (they are in the transcript). */
  rows: number;
  expanded: boolean;
  frame: number;
  /** Last lines of a tool node's stdout, while or after it runs. */
  outputTail?: string[];
  /** What the node's latest visit changed in the working folder (a diffstat from its snapshot). */
  diffStat?: string[];
}

/**
 * The selected node's live activity: the agent's conversation (markdown text, its thoughts and plan,
 * tool calls, warnings)
 * or a tool node's output tail, then what the node concluded (notes, failure, the edge taken and
 * why). Only what fits in `rows` is laid out, newest last.
 */
export function ActivityPane({
  node,
  width,
  rows,
  expanded,
  frame,
  outputTail,
  diffStat,
}: ActivityPaneProps) {
  const theme = useTheme();
  const renderMarkdown =
    useMarkdown(node?.activity.some((item) => item.kind === 'text') ?? false) ?? plainLines;
  if (!node) return null;
  const inner = width - 4;
  const blocks: ReactNode[] = [];
  let budget = rows;
  for (let i = node.activity.length - 1; i >= 0 && budget > 0; i--) {
    const item = node.activity[i];
    if (!item) continue;
    if (item.kind === 'text') {
      // One row is kept for the ⋮ that says earlier lines are hidden.
      const tail = tailLines(item.text, Math.max(1, budget - 1), inner);
      budget -= tail.lines.length + (tail.hidden ? 1 : 0);
      blocks.unshift(
        <Box key={item.id} flexDirection="column">
          {tail.hidden ? <Text color={theme.muted}>⋮</Text> : null}
          <Markdown lines={renderMarkdown(tail.lines, tail.fence)} />
        </Box>,
      );
    } else if (item.kind === 'thought') {
      budget -= thoughtRows(item.text, expanded);
      blocks.unshift(<ThoughtLine key={item.id} text={item.text} expanded={expanded} width={inner} />);
    } else if (item.kind === 'plan') {
      budget -= planRows(item.entries, expanded);
      blocks.unshift(
        <PlanView key={item.id} entries={item.entries} expanded={expanded} frame={frame} width={inner} />,
      );
    } else if (item.kind === 'tool') {
      budget -= expanded ? 8 : 2;
      blocks.unshift(
        <ToolCallLine key={item.id} item={item} expanded={expanded} frame={frame} width={inner} />,
      );
    } else {
      budget -= 1;
      blocks.unshift(
        <Text key={item.id} color={theme.warn} wrap="truncate-end">
          ⚠ {item.message}
        </Text>,
      );
    }
  }
  const finished = node.status !== 'running' && node.status !== 'pending';
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.muted} paddingX={1}>
      <Text wrap="truncate-end" color={theme.heading}>
        {node.label}{' '}
        <Text color={theme.muted}>
          · {node.kind}
          {node.model ? ` · ${node.model}` : ''}
          {node.attempt > 1 ? ` · attempt ${node.attempt}/${node.maxAttempts}` : ''}
        </Text>
      </Text>
      {blocks}
      {outputTail && outputTail.length > 0 ? (
        <Box flexDirection="column">
          {outputTail.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a tail of lines in order
            <Text key={i} wrap="truncate-end" color={theme.muted}>
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
      {diffStat && diffStat.length > 0 ? (
        <Box flexDirection="column">
          {diffStat.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a diffstat's lines in order
            <Text key={i} wrap="truncate-end" color={diffLineColor(line, i === diffStat.length - 1, theme)}>
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
      {node.status === 'pending' ? <Text color={theme.muted}>not run yet</Text> : null}
      {node.status === 'running' && blocks.length === 0 && !outputTail?.length ? (
        <Text color={theme.muted}>working…</Text>
      ) : null}
      {finished && node.failureReason ? (
        <Text color={theme.fail} wrap="wrap">
          {node.status === 'retrying' ? 'retrying: ' : 'failed: '}
          {node.failureReason}
        </Text>
      ) : null}
      {finished && node.notes ? <Text wrap="wrap">notes: {node.notes}</Text> : null}
      {node.next ? (
        <Text wrap="truncate-end">
          <Text color={theme.accent}>→ {node.next}</Text>
          <Text color={theme.muted}> · {node.route ?? ''}</Text>
        </Text>
      ) : null}
    </Box>
  );
}

/** A diff's added and removed lines in their colours; a diffstat's summary line (last) muted. */
function diffLineColor(
  line: string,
  last: boolean,
  theme: { added?: string | undefined; removed?: string | undefined; muted?: string | undefined },
): string | undefined {
  if (/^\+(?!\+\+ )/.test(line)) return theme.added;
  if (/^-(?!-- )/.test(line)) return theme.removed;
  return last && !/^[+-]/.test(line) ? theme.muted : undefined;
}
