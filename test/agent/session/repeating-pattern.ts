import type { ToolCallFingerprint } from '../../../src/agent/session/loop-detector.js';

/**
 * The reference the incremental LoopDetector is checked against: rescans the last `window` calls for the
 * shortest pattern (length 1–3) they repeat, comparing the fingerprints' canonical keys.
 */
export function detectRepeatingPattern(
  calls: readonly ToolCallFingerprint[],
  window: number,
): ToolCallFingerprint[] | undefined {
  if (calls.length < window) return undefined;
  const start = calls.length - window;
  for (let length = 1; length <= 3; length++) {
    // At least two whole repetitions, or a "pattern" of three distinct calls would match any window of three.
    if (length * 2 > window) break;
    // Every call equals the one `length` before it (within the window) exactly when the window repeats its
    // first `length` calls.
    let repeats = true;
    for (let i = start + length; i < calls.length; i++) {
      if (calls[i]!.key !== calls[i - length]!.key) {
        repeats = false;
        break;
      }
    }
    if (repeats) return calls.slice(start, start + length);
  }
  return undefined;
}
