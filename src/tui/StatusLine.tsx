import { Box, Text } from 'ink';
import { memo } from 'react';
import { formatCost, formatTokens } from './format-amount.js';
import type { RunPhase, Usage } from './run-state.js';
import { useTheme } from './use-theme.js';

export interface StatusLineProps {
  usage: Usage;
  /** Model of the running node, when known. */
  model?: string;
  phase: RunPhase;
  readOnly?: boolean;
  width: number;
}

/** Model, tokens, cache hits and cost on the left; the keys on the right (rendered again only when they change). */
export const StatusLine = memo(function StatusLine({
  usage,
  model,
  phase,
  readOnly,
  width,
}: StatusLineProps) {
  const theme = useTheme();
  const cache = usage.inputTokens > 0 ? Math.round((100 * usage.cacheReadTokens) / usage.inputTokens) : 0;
  const stopping = phase === 'pausing';
  const keys = readOnly
    ? width >= 100
      ? '↑↓ node · ⏎ expand · ? help · q quit'
      : '↑↓ ⏎ ? · q quit'
    : stopping
      ? '^C again: cancel now'
      : width >= 100
        ? '↑↓ node · ⏎ expand · ? help · ^C pause · ^C^C cancel'
        : '↑↓ ⏎ ? · ^C pause';
  return (
    <Box width={width} justifyContent="space-between">
      <Box flexShrink={1} marginRight={1}>
        <Text wrap="truncate-end">
          <Text color={theme.accent}>{model ?? usage.model ?? 'no model'}</Text>
          <Text color={theme.muted}>
            {' '}
            · in {formatTokens(usage.inputTokens)} out {formatTokens(usage.outputTokens)} · cache {cache}% ·{' '}
          </Text>
          <Text>{formatCost(usage.costUsd)}</Text>
        </Text>
      </Box>
      <Box flexShrink={0}>
        <Text color={stopping ? theme.warn : theme.muted}>{keys}</Text>
      </Box>
    </Box>
  );
});
