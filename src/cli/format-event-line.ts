import type { PipelineEvent } from '../shared/pipeline-event.js';
import { printableJson } from '../shared/printable-text.js';
import type { Colors } from './colors.js';
import { displayPath } from './display-path.js';
import { formatUsage } from './format-usage.js';

/** A node's outcome at a glance: only SUCCESS gets a tick. */
const STATUS_MARKS: Readonly<Record<string, string>> = {
  success: '✓',
  partial_success: '◐',
  retry: '↻',
  fail: '✗',
  skipped: '–',
};

/**
 * One human-readable progress line per event (plain output; the TUI replaces this on a terminal).
 * The start of a run takes two lines: its name, then where its run directory is (relative to `cwd`).
 */
export function formatEventLine(raw: PipelineEvent, colors: Colors, cwd?: string): string | undefined {
  // What the pipeline supplied (its name, goal, notes, questions) is shown, never obeyed by the terminal.
  const event = printableJson(raw);
  const { branch, parent } = event.data;
  const where = [parent ? `child` : '', branch ? `branch ${branch}` : ''].filter(Boolean).join(' ');
  const at = where ? ` (${where})` : '';
  const node = event.node_id ?? '';
  switch (event.kind) {
    case 'pipeline.start': {
      const d = event.data;
      return `▶ ${colors.bold(d.name)}${d.goal ? ` — ${d.goal}` : ''}${runDirLine(d.run_dir, cwd)}`;
    }
    case 'pipeline.resume': {
      const d = event.data;
      const origin = d.forked_from ? ` (forked from run ${d.forked_from.run_id})` : '';
      return `▶ resuming ${colors.bold(d.name)} at ${d.resume_at}${origin}${runDirLine(d.run_dir, cwd)}`;
    }
    case 'node.start': {
      const { attempt } = event.data;
      return `  → ${node}${at}${attempt > 1 ? ` (attempt ${attempt})` : ''}`;
    }
    case 'node.complete': {
      const { status, failure_reason, notes } = event.data;
      const paint = status === 'fail' ? colors.red : status === 'success' ? colors.green : colors.yellow;
      const mark = STATUS_MARKS[status] ?? '•';
      const why = failure_reason ? `: ${failure_reason}` : notes ? `: ${notes}` : '';
      const spent = formatUsage(event.data.usage);
      return `  ${paint(mark)} ${node}${at} ${paint(status)}${why}${spent ? ` (${spent})` : ''}`;
    }
    case 'node.retry': {
      const { attempt, reason, delay_ms } = event.data;
      const wait = delay_ms !== undefined ? ` (next attempt in ${formatWait(delay_ms)})` : '';
      return `  ↻ ${node}${at} retry ${attempt}: ${reason}${wait}`;
    }
    case 'goal_gate.retry':
      return `  ↺ goal gate ${node} unsatisfied: back to ${event.data.target}`;
    case 'loop.restart':
      return `  ↺ loop restart at ${event.data.target}`;
    case 'interview.start':
      return `  ? ${node}: ${event.data.question}`;
    case 'interview.complete':
      return `  ! ${node}: ${event.data.label ?? 'answered'}`;
    case 'parallel.start': {
      const { branches } = event.data;
      const count = `${branches.length} branch${branches.length === 1 ? '' : 'es'}`;
      return `  ⇉ ${node}${at}: ${count}${branches.length > 0 ? ` (${branches.join(', ')})` : ''}`;
    }
    case 'process.stopped': {
      const { command, killed } = event.data;
      return `  ⏹ stopped a process group left by the interrupted run: ${node || 'unknown node'} (${command})${killed ? ', killed' : ''}`;
    }
    case 'agent.tool_call_start': {
      const { tool_name, title, arguments: args } = event.data;
      // An agent at work: one line per tool call, so a long node shows progress without the TUI.
      return `    · ${node}${at} ${tool_name ?? title ?? 'tool'} ${firstArgument(args)}`.trimEnd();
    }
    case 'agent.error':
      return colors.red(`    ✗ ${node}${at} agent error: ${event.data.error}`);
    // What costs tokens or loses work is said even without the TUI: a full context, a cut-off answer.
    case 'agent.context_window_warning':
    case 'agent.output_truncated':
      return colors.yellow(`    ! ${node}${at} ${event.data.message}`);
    case 'agent.compaction':
      return colors.yellow(
        `    ! ${node}${at} context compacted: ${event.data.removed_turns} older turns summarised by an extra model call`,
      );
    case 'router.error':
      return colors.yellow(`    ? ${node}${at} router failed, routing by edges: ${event.data.error}`);
    case 'pipeline.error':
      return colors.red(`✗ ${node ? `${node}: ` : ''}${event.data.error}`);
    case 'tree.unavailable':
      return colors.yellow(`  ! ${event.data.reason}`);
    case 'tree.warning':
      return colors.yellow(`  ! ${event.data.message}`);
    case 'tree.resume':
      return treeResumeLine(event.data);
    case 'notification.failed': {
      const { notification, receiver, attempts, error } = event.data;
      return colors.yellow(
        `  ! the ${notification} notification to ${receiver} was not delivered after ${attempts} attempts: ${error}`,
      );
    }
    default:
      return undefined;
  }
}

/** What a resume found in the working folder, and what it did about it. */
function treeResumeLine(data: { commit: string; action: string; changed: string[]; more: number }): string {
  const at = data.commit.slice(0, 12);
  if (data.action === 'materialised')
    return `  ⟲ working tree restored from snapshot ${at} (the folder did not hold it)`;
  if (data.changed.length === 0) return `  ≡ working tree as at snapshot ${at}`;
  const more = data.more > 0 ? `, and ${data.more} more` : '';
  const list = `${data.changed.join(', ')}${more}`;
  return data.action === 'restored'
    ? `  ⟲ working tree reset to snapshot ${at}: ${list}`
    : `  ≠ working tree differs from snapshot ${at} (kept; --restore-tree resets it): ${list}`;
}

/** `350 ms`, `1.6 s`, `54 s`: a retry's backoff, as long as a person reads it. */
function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** The argument a person recognises a tool call by (its path or command), cut to one short line. */
function firstArgument(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  const value = Object.values(args).find((v): v is string => typeof v === 'string');
  if (value === undefined) return '';
  const line = value.split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function runDirLine(dir: string | undefined, cwd: string | undefined): string {
  if (typeof dir !== 'string') return '';
  return `\n  run directory: ${cwd ? displayPath(cwd, dir) : dir}`;
}
