import { Box, Text } from 'ink';
import { useTheme } from './use-theme.js';

export interface ThoughtLineProps {
  text: string;
  expanded: boolean;
  width: number;
}

/** Lines of a thought shown when expanded; the rest are counted. */
export const THOUGHT_LINES = 12;

/**
 * The agent's reasoning, dimmed: one line (its first) with how many there are, like a collapsed tool
 * call; expanded (Enter), its first lines. It is the agent thinking aloud, not its answer.
 */
export function ThoughtLine({ text, expanded, width }: ThoughtLineProps) {
  const theme = useTheme();
  const lines = text
    .replace(/\s+$/, '')
    .split('\n')
    .filter((line, i, all) => line.trim() !== '' || (i > 0 && i < all.length - 1));
  const shown = expanded ? lines.slice(0, THOUGHT_LINES) : [];
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Text color={theme.muted} dimColor>
          ✻{' '}
        </Text>
        <Box flexGrow={1}>
          <Text color={theme.muted} dimColor italic wrap="truncate-end">
            {expanded ? 'thinking' : `thinking: ${lines[0] ?? ''}`}
          </Text>
        </Box>
        {lines.length > 1 ? (
          <Text color={theme.muted} dimColor>
            {` ${expanded ? '▾' : '▸'}${lines.length} lines`}
          </Text>
        ) : null}
      </Box>
      {shown.length > 0 ? (
        <Box marginLeft={2} flexDirection="column">
          {shown.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one thought never reorder
            <Text key={i} color={theme.muted} dimColor italic wrap="truncate-end">
              {line}
            </Text>
          ))}
          {lines.length > shown.length ? (
            <Text color={theme.muted} dimColor>
              … {lines.length - shown.length} more lines
            </Text>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}

/** Rows a thought takes in the pane. */
export function thoughtRows(text: string, expanded: boolean): number {
  if (!expanded) return 1;
  const count = text.replace(/\s+$/, '').split('\n').length;
  return 1 + Math.min(count, THOUGHT_LINES) + (count > THOUGHT_LINES ? 1 : 0);
}
