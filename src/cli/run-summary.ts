import type { RunResult } from '../run/run-types.js';
import { printableJson } from '../shared/printable-text.js';
import type { Colors } from './colors.js';

/**
 * The quality with its reasons, e.g. `quality: degraded — failed: test; retried: implement`, or
 * `quality: degraded — ended at check: no edge matched`: `degraded` alone tells a user nothing about
 * where to look. Nodes that failed and then succeeded are `recovered`, not `failed`.
 */
export function describeQuality(result: RunResult, retried: readonly string[]): string {
  const recovered = result.recoveredNodes;
  const failed = result.failedNodes.filter((id) => !recovered.includes(id));
  const parts = [
    result.deadEnd?.reason ?? '',
    failed.length > 0 ? `failed: ${failed.join(', ')}` : '',
    result.partialNodes.length > 0 ? `partial: ${result.partialNodes.join(', ')}` : '',
    recovered.length > 0 ? `recovered: ${recovered.join(', ')}` : '',
    retried.length > 0 ? `retried: ${retried.join(', ')}` : '',
  ].filter(Boolean);
  return `quality: ${result.quality}${parts.length > 0 ? ` — ${parts.join('; ')}` : ''}`;
}

/** The last line of a finished run (completed or failed); `reasonShown` drops a reason printed above. */
export function formatRunSummary(
  raw: RunResult,
  options: { retried: readonly string[]; reasonShown: boolean; runDir: string; colors: Colors },
): string {
  const result = printableJson(raw);
  const quality = describeQuality(result, options.retried);
  if (result.status === 'completed')
    return `${options.colors.green('Completed')} at ${result.stoppedAt ?? '?'} (${quality}). Run directory: ${options.runDir}`;
  const where = result.failure?.node ?? result.stoppedAt;
  const reason = options.reasonShown ? '' : `: ${result.failure?.reason ?? 'unknown reason'}`;
  return `${options.colors.red('Failed')}${where ? ` at ${where}` : ''}${reason} (${quality}). Run directory: ${options.runDir}`;
}
