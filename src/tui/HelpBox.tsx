import { Box, Text } from 'ink';
import { useTheme } from './use-theme.js';

const KEYS: Array<[string, string]> = [
  ['↑ / ↓', 'select a node (its activity shows below)'],
  ['f', 'follow the running node again'],
  ['Enter', 'expand / collapse tool output'],
  ['?', 'show / hide this help'],
  ['Ctrl-C', 'pause after the current node (checkpoint, resume command printed); at a gate, stop now'],
  ['Ctrl-C ×2', 'cancel now'],
  ['at a gate', '↑/↓ + Enter or the option key; / types a free-form answer'],
  ['Tab', 'at a gate: scroll the evidence (↑/↓, PgUp/PgDn); Esc or Tab: back to the options'],
];

export function HelpBox({ width }: { width: number }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.accent} paddingX={1}>
      {KEYS.map(([key, what]) => (
        <Text key={key} wrap="truncate-end">
          <Text color={theme.key} bold>
            {key.padEnd(10)}
          </Text>
          {what}
        </Text>
      ))}
    </Box>
  );
}
