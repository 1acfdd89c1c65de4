import { Box, Text } from 'ink';
import type { EvidenceLine } from './evidence-lines.js';
import { useTheme } from './use-theme.js';

export interface EvidencePaneProps {
  title: string;
  lines: readonly EvidenceLine[];
  /** The first line shown, and how many are. */
  offset: number;
  rows: number;
  /** The keys scroll it (Tab gave them to it). */
  focused: boolean;
  /** Tab can give it the keys: this process answers the gate (not a read-only attach). */
  scrollable: boolean;
  width: number;
}

/** What the node before a gate did, beside the gate's options: a window of `rows` lines, scrollable. */
export function EvidencePane({ title, lines, offset, rows, focused, scrollable, width }: EvidencePaneProps) {
  const theme = useTheme();
  const shown = lines.slice(offset, offset + rows);
  const range = lines.length > rows ? ` · ${offset + 1}–${offset + shown.length} of ${lines.length}` : '';
  return (
    <Box
      flexDirection="column"
      width={width}
      borderStyle="single"
      borderColor={focused ? theme.key : theme.muted}
      paddingX={1}
    >
      <Text wrap="truncate-end" color={theme.heading}>
        {title}
        <Text color={theme.muted}>
          {range}
          {focused ? ' · ↑↓ PgUp/PgDn scroll · Esc: the options' : scrollable ? ' · Tab: scroll this' : ''}
        </Text>
      </Text>
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a window of lines in order
        <Text key={offset + i} wrap="truncate-end" color={line.role ? theme[line.role] : undefined}>
          {line.text === '' ? ' ' : line.text}
        </Text>
      ))}
    </Box>
  );
}
