import type { PipelineEvent } from '../shared/pipeline-event.js';
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
export function formatEventLine(event: PipelineEvent, colors: Colors, cwd?: string): string | undefined {
  const d = event.data;
  const where = [d['parent'] ? `child` : '', d['branch'] ? `branch ${String(d['branch'])}` : '']
    .filter(Boolean)
    .join(' ');
  const at = where ? ` (${where})` : '';
  const node = event.node_id ?? '';
  switch (event.kind) {
    case 'pipeline.start':
      return `▶ ${colors.bold(String(d['name']))}${d['goal'] ? ` — ${String(d['goal'])}` : ''}${runDirLine(d, cwd)}`;
    case 'pipeline.resume':
      return `▶ resuming ${colors.bold(String(d['name']))} at ${String(d['resume_at'])}${runDirLine(d, cwd)}`;
    case 'node.start':
      return `  → ${node}${at}${Number(d['attempt']) > 1 ? ` (attempt ${String(d['attempt'])})` : ''}`;
    case 'node.complete': {
      const status = String(d['status']);
      const paint = status === 'fail' ? colors.red : status === 'success' ? colors.green : colors.yellow;
      const mark = STATUS_MARKS[status] ?? '•';
      const why = d['failure_reason']
        ? `: ${String(d['failure_reason'])}`
        : d['notes']
          ? `: ${String(d['notes'])}`
          : '';
      const spent = formatUsage(d['usage']);
      return `  ${paint(mark)} ${node}${at} ${paint(status)}${why}${spent ? ` (${spent})` : ''}`;
    }
    case 'node.retry': {
      const wait = typeof d['delay_ms'] === 'number' ? ` (next attempt in ${formatWait(d['delay_ms'])})` : '';
      return `  ↻ ${node}${at} retry ${String(d['attempt'])}: ${String(d['reason'])}${wait}`;
    }
    case 'goal_gate.retry':
      return `  ↺ goal gate ${node} unsatisfied: back to ${String(d['target'])}`;
    case 'loop.restart':
      return `  ↺ loop restart at ${String(d['target'])}`;
    case 'interview.start':
      return `  ? ${node}: ${String(d['question'] ?? 'waiting for an answer')}`;
    case 'interview.complete':
      return `  ! ${node}: ${String(d['answer'] ?? d['label'] ?? 'answered')}`;
    case 'parallel.start': {
      const branches = Array.isArray(d['branches']) ? d['branches'].map(String) : [];
      const count = `${branches.length} branch${branches.length === 1 ? '' : 'es'}`;
      return `  ⇉ ${node}${at}: ${count}${branches.length > 0 ? ` (${branches.join(', ')})` : ''}`;
    }
    case 'process.stopped':
      return `  ⏹ stopped a process group left by the interrupted run: ${node || 'unknown node'} (${String(d['command'])})${d['killed'] ? ', killed' : ''}`;
    case 'agent.tool_call_start':
      // An agent at work: one line per tool call, so a long node shows progress without the TUI.
      return `    · ${node}${at} ${String(d['tool_name'] ?? d['title'] ?? 'tool')} ${firstArgument(d['arguments'])}`.trimEnd();
    case 'agent.error':
      return colors.red(`    ✗ ${node}${at} agent error: ${String(d['error'])}`);
    // What costs tokens or loses work is said even without the TUI: a full context, a cut-off answer.
    case 'agent.context_window_warning':
    case 'agent.output_truncated':
      return colors.yellow(`    ! ${node}${at} ${String(d['message'])}`);
    case 'agent.compaction':
      return colors.yellow(
        `    ! ${node}${at} context compacted: ${String(d['removed_turns'])} older turns summarised by an extra model call`,
      );
    case 'router.error':
      return colors.yellow(`    ? ${node}${at} router failed, routing by edges: ${String(d['error'])}`);
    case 'pipeline.error':
      return colors.red(`✗ ${node ? `${node}: ` : ''}${String(d['error'])}`);
    default:
      return undefined;
  }
}

/** `350 ms`, `1.6 s`, `54 s`: a retry's backoff, as long as a person reads it. */
function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** The argument a person recognises a tool call by (its path or command), cut to one short line. */
function firstArgument(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  const value = Object.values(args).find((v) => typeof v === 'string') as string | undefined;
  if (value === undefined) return '';
  const line = value.split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function runDirLine(data: Record<string, unknown>, cwd: string | undefined): string {
  const dir = data['run_dir'];
  if (typeof dir !== 'string') return '';
  return `\n  run directory: ${cwd ? displayPath(cwd, dir) : dir}`;
}
