import { Box, Text } from 'ink';
import { formatDuration } from './format-duration.js';
import type { RunState } from './run-state.js';
import type { ThemeRole } from './theme.js';
import { useTheme } from './use-theme.js';

export interface HeaderProps {
  state: Pick<RunState, 'name' | 'goal' | 'runId' | 'phase' | 'quality'>;
  elapsedMs: number;
  width: number;
}

export function phaseLabel(state: HeaderProps['state']): { text: string; role: ThemeRole } {
  switch (state.phase) {
    case 'starting':
      return { text: 'starting', role: 'muted' };
    case 'running':
      return { text: 'running', role: 'running' };
    case 'waiting':
      return { text: 'waiting for you', role: 'key' };
    case 'pausing':
      return { text: 'pausing after this node', role: 'warn' };
    case 'paused':
      return { text: 'paused', role: 'warn' };
    case 'cancelled':
      return { text: 'cancelled', role: 'fail' };
    case 'done':
      return {
        text: `done (${state.quality ?? 'clean'})`,
        role: state.quality === 'degraded' ? 'warn' : 'ok',
      };
    case 'failed':
      return { text: 'failed', role: 'fail' };
  }
}

/** Pipeline name, run id, elapsed time and state on one line; the goal under it. */
export function Header({ state, elapsedMs, width }: HeaderProps) {
  const theme = useTheme();
  const phase = phaseLabel(state);
  return (
    <Box flexDirection="column" width={width}>
      <Box justifyContent="space-between">
        <Box flexShrink={1} flexGrow={1} flexBasis={0}>
          <Text wrap="truncate-end">
            <Text bold color={theme.accent}>
              ◆ {state.name}
            </Text>
            {state.runId ? <Text color={theme.muted}> · {state.runId}</Text> : null}
          </Text>
        </Box>
        <Text wrap="truncate-start">
          <Text color={theme.muted}>{formatDuration(elapsedMs)} · </Text>
          <Text bold color={theme[phase.role]}>
            {phase.text}
          </Text>
        </Text>
      </Box>
      {state.goal ? (
        <Text wrap="truncate-end" color={theme.muted}>
          goal: {state.goal}
        </Text>
      ) : null}
    </Box>
  );
}
