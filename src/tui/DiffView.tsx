import { Box, Text } from 'ink';
import type { DiffLine } from './diff-lines.js';
import { useTheme } from './use-theme.js';

/** An edit as coloured +/- lines, at most `max` of them. */
export function DiffView({ lines, max }: { lines: DiffLine[]; max: number }) {
  const theme = useTheme();
  const shown = lines.slice(0, max).map((line, n) => ({ ...line, n }));
  return (
    <Box flexDirection="column">
      {shown.map((line) => (
        <Text
          key={line.n}
          wrap="truncate-end"
          color={line.sign === '+' ? theme.added : line.sign === '-' ? theme.removed : theme.muted}
        >
          {line.sign === '@' ? line.text : `${line.sign} ${line.text}`}
        </Text>
      ))}
      {lines.length > max ? <Text color={theme.muted}>… {lines.length - max} more lines</Text> : null}
    </Box>
  );
}
