import {
  DEFAULT_CHAR_LIMITS,
  DEFAULT_LINE_LIMITS,
  FALLBACK_CHAR_LIMIT,
  resolveLimits,
  type TruncationLimits,
  type TruncationMode,
} from './truncation-limits.js';

/** Stage 1, `head_tail`: the marker, word for word. */
export const headTailMarker = (removed: number): string =>
  `\n\n[WARNING: Tool output was truncated. ${removed} characters were removed from the middle. ` +
  'The full output is available in the event stream. ' +
  'If you need to see specific parts, re-run the tool with more targeted parameters.]\n\n';

/** Stage 1, `tail`: the prefix marker. */
export const tailMarker = (removed: number): string =>
  `[WARNING: Tool output was truncated. First ${removed} characters were removed. ` +
  'The full output is available in the event stream.]\n\n';

/** Stage 2: what replaces the omitted lines. */
export const linesMarker = (omitted: number): string => `\n[... ${omitted} lines omitted ...]\n`;

/**
 * Stage 1: at most `limit` characters of `output` (plus the marker). `alreadyOmitted` counts characters
 * dropped from the middle before we saw the text (a bounded shell buffer): they are reported in the marker,
 * and when non-zero the output is marked even if what is left fits.
 */
export function truncateChars(
  output: string,
  limit: number,
  mode: TruncationMode,
  alreadyOmitted = 0,
): string {
  if (output.length <= limit && alreadyOmitted === 0) return output;
  const excess = Math.max(0, output.length - limit);
  const removed = excess + alreadyOmitted;
  if (mode === 'tail')
    return tailMarker(removed) + output.slice(output.length - Math.min(limit, output.length));
  if (excess === 0) {
    // Everything left fits; put the marker where the text was cut, which is the middle of what we kept.
    const half = Math.floor(output.length / 2);
    return output.slice(0, half) + headTailMarker(removed) + output.slice(half);
  }
  const head = Math.floor(limit / 2);
  const tail = limit - head;
  return output.slice(0, head) + headTailMarker(removed) + output.slice(output.length - tail);
}

/** Stage 2: at most `limit` lines, the first `limit/2` and the last `limit - limit/2`. */
export function truncateLines(output: string, limit: number): string {
  // Most outputs fit: count the line breaks before splitting (every shell, grep and glob result passes here).
  let breaks = 0;
  for (let at = output.indexOf('\n'); at !== -1 && breaks < limit; at = output.indexOf('\n', at + 1))
    breaks++;
  if (breaks < limit) return output;
  const lines = output.split('\n');
  if (lines.length <= limit) return output;
  const head = Math.floor(limit / 2);
  const tail = limit - head;
  const omitted = lines.length - head - tail;
  return lines.slice(0, head).join('\n') + linesMarker(omitted) + lines.slice(lines.length - tail).join('\n');
}

/**
 * The two-stage truncation of a tool's output for the model: characters first (so one enormous
 * line cannot get past the line limit), then lines, with the tool's limits (defaults of
 * overridable per tool). The caller keeps the full output for TOOL_CALL_END.
 *
 * @example
 * truncateOutput('write_file', 'x'.repeat(1500)).startsWith('[WARNING: Tool output was truncated. First 500')
 */
export function truncateOutput(
  toolName: string,
  output: string,
  config?: TruncationLimits,
  alreadyOmitted = 0,
): string {
  // resolveLimits' lookups without its object: this runs for every tool call.
  const charLimit = config?.charLimits?.[toolName] ?? DEFAULT_CHAR_LIMITS[toolName] ?? FALLBACK_CHAR_LIMIT;
  const lineLimit = config?.lineLimits?.[toolName] ?? DEFAULT_LINE_LIMITS[toolName];
  const stage1 =
    output.length <= charLimit && alreadyOmitted === 0
      ? output
      : truncateChars(output, charLimit, resolveLimits(toolName, config).mode, alreadyOmitted);
  return lineLimit === undefined ? stage1 : truncateLines(stage1, lineLimit);
}
