import { Box, Text } from 'ink';
import type { PlanEntry } from './run-state.js';
import { SPINNER } from './status-mark.js';
import type { ThemeRole } from './theme.js';
import { useTheme } from './use-theme.js';

export interface PlanViewProps {
  entries: PlanEntry[];
  expanded: boolean;
  frame: number;
  width: number;
}

/** Entries shown when collapsed; expanded (Enter) shows them all. */
export const PLAN_ENTRIES = 8;

function markOf(status: PlanEntry['status'], frame: number): { mark: string; role: ThemeRole } {
  if (status === 'completed') return { mark: '✓', role: 'ok' };
  if (status === 'in_progress') return { mark: SPINNER[frame % SPINNER.length] as string, role: 'running' };
  return { mark: '○', role: 'muted' };
}

/**
 * The agent's plan: a heading with how far it got, then each entry with its status mark (✓ done, a
 * spinner for the one in progress, ○ to do). Collapsed, the entries around the one in progress.
 */
export function PlanView({ entries, expanded, frame, width }: PlanViewProps) {
  const theme = useTheme();
  const done = entries.filter((e) => e.status === 'completed').length;
  const shown = expanded ? { items: entries, start: 0, rest: 0 } : window(entries, PLAN_ENTRIES);
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text color={theme.heading}>≡ plan</Text>
        <Text color={theme.muted}>
          {' '}
          {done}/{entries.length} done
        </Text>
      </Text>
      {shown.start > 0 ? <Text color={theme.muted}> ⋮ {shown.start} done before</Text> : null}
      {shown.items.map((entry, i) => {
        const { mark, role } = markOf(entry.status, frame);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a plan's entries are replaced whole
          <Text key={shown.start + i} wrap="truncate-end">
            {'  '}
            <Text color={theme[role]}>{mark}</Text>{' '}
            <Text
              {...(entry.status === 'completed' ? { color: theme.muted } : {})}
              bold={entry.status === 'in_progress'}
            >
              {entry.content}
            </Text>
            {entry.priority === 'high' ? <Text color={theme.warn}> !</Text> : null}
          </Text>
        );
      })}
      {shown.rest > 0 ? <Text color={theme.muted}> … {shown.rest} more</Text> : null}
    </Box>
  );
}

/** At most `max` entries, starting a little before the first unfinished one so it is in view. */
function window(entries: PlanEntry[], max: number): { items: PlanEntry[]; start: number; rest: number } {
  if (entries.length <= max) return { items: entries, start: 0, rest: 0 };
  const firstOpen = entries.findIndex((e) => e.status !== 'completed');
  const start = Math.max(
    0,
    Math.min((firstOpen === -1 ? entries.length : firstOpen) - 1, entries.length - max),
  );
  return { items: entries.slice(start, start + max), start, rest: entries.length - start - max };
}

/** Rows the plan takes in the pane. */
export function planRows(entries: PlanEntry[], expanded: boolean): number {
  if (expanded || entries.length <= PLAN_ENTRIES) return 1 + entries.length;
  const shown = window(entries, PLAN_ENTRIES);
  return 1 + PLAN_ENTRIES + (shown.start > 0 ? 1 : 0) + (shown.rest > 0 ? 1 : 0);
}
