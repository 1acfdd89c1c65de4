import { Static, Text } from 'ink';
import { memo } from 'react';
import { formatCost } from './format-amount.js';
import { formatDuration } from './format-duration.js';
import type { LogEntry } from './run-state.js';
import { statusMark } from './status-mark.js';
import { useTheme } from './use-theme.js';

/**
 * Finished node visits, printed once into the scrollback and never redrawn (Ink's <Static>); rendered
 * again only when the log changes.
 */
export const Transcript = memo(function Transcript({ entries }: { entries: LogEntry[] }) {
  const theme = useTheme();
  return (
    <Static items={entries}>
      {(entry) => {
        const { mark, role } = statusMark(entry.status, 0);
        return (
          <Text key={entry.id} wrap="truncate-end">
            <Text color={theme[role]}>{mark}</Text> {entry.label}
            {entry.branch ? <Text color={theme.muted}> [{entry.branch}]</Text> : null}
            <Text color={theme.muted}>
              {' '}
              {formatDuration(entry.durationMs)}
              {entry.costUsd > 0 ? ` ${formatCost(entry.costUsd)}` : ''}
              {entry.detail ? ` · ${entry.detail.split('\n')[0]}` : ''}
            </Text>
          </Text>
        );
      }}
    </Static>
  );
});
