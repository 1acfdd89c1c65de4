import { Box, Text } from 'ink';
import { DiffView } from './DiffView.js';
import { diffLines } from './diff-lines.js';
import { formatDuration } from './format-duration.js';
import type { ToolCallItem } from './run-state.js';
import { SPINNER } from './status-mark.js';
import { useTheme } from './use-theme.js';

const KEY_ARGS = ['path', 'file_path', 'command', 'cmd', 'pattern', 'query', 'url', 'file'];

export function keyArgument(args: Record<string, unknown>): string {
  for (const name of KEY_ARGS) if (typeof args[name] === 'string') return args[name] as string;
  const first = Object.values(args).find((v) => typeof v === 'string');
  return typeof first === 'string' ? first : '';
}

export interface ToolCallLineProps {
  item: ToolCallItem;
  expanded: boolean;
  frame: number;
  width: number;
}

/** One tool call: name, key argument, status, duration; its first output lines or its diff under it. */
export function ToolCallLine({ item, expanded, frame, width }: ToolCallLineProps) {
  const theme = useTheme();
  const mark =
    item.status === 'running'
      ? (SPINNER[frame % SPINNER.length] as string)
      : item.status === 'ok'
        ? '✓'
        : '✗';
  const role = item.status === 'running' ? 'running' : item.status === 'ok' ? 'ok' : 'fail';
  const diff = diffLines(item.name, item.args);
  const output = item.output.replace(/\s+$/, '');
  const outputLines = output === '' ? [] : output.split('\n');
  const shownOutput = expanded
    ? outputLines.slice(0, 12)
    : item.status === 'error' || !diff
      ? outputLines.slice(0, 1)
      : [];
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Text color={theme[role]}>{mark} </Text>
        <Text bold>{item.name}</Text>
        <Box flexGrow={1} marginLeft={1}>
          <Text wrap="truncate-end" color={theme.muted}>
            {keyArgument(item.args).split('\n')[0]}
          </Text>
        </Box>
        <Text color={theme.muted}>
          {item.durationMs !== undefined ? ` ${formatDuration(item.durationMs)}` : ''}
          {outputLines.length > 1 ? ` ${expanded ? '▾' : '▸'}${outputLines.length} lines` : ''}
        </Text>
      </Box>
      {diff ? (
        <Box marginLeft={2}>
          <DiffView lines={diff} max={expanded ? 40 : 6} />
        </Box>
      ) : null}
      {shownOutput.length > 0 ? (
        <Box marginLeft={2} flexDirection="column">
          {shownOutput.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: output lines never reorder
            <Text key={i} wrap="truncate-end" color={item.status === 'error' ? theme.fail : theme.muted}>
              {line}
            </Text>
          ))}
          {expanded && outputLines.length > shownOutput.length ? (
            <Text color={theme.muted}>… {outputLines.length - shownOutput.length} more lines</Text>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}
