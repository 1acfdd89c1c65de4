import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

export interface ToolCallFingerprint {
  toolName: string;
  /** Tool name + a hash of the canonical arguments: reading a.py and b.py differ, key order does not. */
  key: string;
}

export interface LoopDetection {
  /** Tool names of one repetition, in call order. */
  pattern: string[];
  window: number;
}

/** Short argument texts are their own fingerprint; longer ones are hashed so the window stays small. */
const HASH_ABOVE_CHARS = 128;

export function fingerprintToolCall(toolName: string, args: unknown): ToolCallFingerprint {
  const text = canonicalJson(args);
  const digest =
    text.length <= HASH_ABOVE_CHARS ? text : createHash('sha256').update(text).digest('hex').slice(0, 32);
  return { toolName, key: `${toolName}:${digest}` };
}

/** The message the model reads when a loop is found (public specification's wording). */
export function loopWarningText(window: number): string {
  return `Loop detected: the last ${window} tool calls follow a repeating pattern. Try a different approach.`;
}

/**
 * Watches the tool calls of a session and reports when the last `window` calls are one pattern of 1, 2 or 3
 * calls repeated (the window need not hold a whole number of repetitions: A B C A B C A B C A is a loop of
 * three in a window of ten). After a report the record starts over, so a model that keeps looping is warned
 * again after another full window rather than on every call.
 */
export class LoopDetector {
  readonly window: number;
  private calls: ToolCallFingerprint[] = [];

  constructor(window: number) {
    this.window = window;
  }

  /** Records one call; returns the detection when the window now shows a loop. */
  record(call: ToolCallFingerprint): LoopDetection | undefined {
    this.calls.push(call);
    if (this.calls.length > this.window) this.calls.shift();
    const found = detectRepeatingPattern(this.calls, this.window);
    if (!found) return undefined;
    this.calls = [];
    return { pattern: found.map((c) => c.toolName), window: this.window };
  }
}

/** The shortest pattern (length 1–3) the last `window` calls repeat, if any; pure. */
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
    // first `length` calls; read in place, since this runs after every tool call.
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
