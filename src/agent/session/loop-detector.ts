import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { jsonDigest } from './json-digest.js';
import { sameJson } from './same-json.js';

export interface ToolCallFingerprint {
  toolName: string;
  arguments: unknown;
  /** Tool name + the canonical arguments (hashed when long): reading a.py and b.py differ, key order does not. */
  key: string;
}

export interface LoopDetection {
  /** Tool names of one repetition, in call order. */
  pattern: string[];
  window: number;
}

/** Short argument texts are their own fingerprint; longer ones are hashed so the window stays small. */
const HASH_ABOVE_CHARS = 128;

/**
 * The key two calls share exactly when the detector counts them as the same call (for reports and tests;
 * the detector itself compares the arguments, and builds keys only where comparing cannot decide).
 */
export function fingerprintToolCall(toolName: string, args: unknown): ToolCallFingerprint {
  return { toolName, arguments: args, key: keyOf(toolName, args) };
}

function keyOf(toolName: string, args: unknown): string {
  const text = canonicalJson(args);
  const digest =
    text.length <= HASH_ABOVE_CHARS ? text : createHash('sha256').update(text).digest('hex').slice(0, 32);
  return `${toolName}:${digest}`;
}

/** The message the model reads when a loop is found. */
export function loopWarningText(window: number): string {
  return `Loop detected: the last ${window} tool calls follow a repeating pattern. Try a different approach.`;
}

/** Pattern lengths the detector looks for (repeating patterns of 1, 2 or 3 calls). */
const MAX_PATTERN = 3;

/**
 * Watches the tool calls of a session and reports when the last `window` calls are one pattern of 1, 2 or 3
 * calls repeated (the window need not hold a whole number of repetitions: A B C A B C A B C A is a loop of
 * three in a window of ten). After a report the record starts over, so a model that keeps looping is warned
 * again after another full window rather than on every call.
 *
 * Incremental, O(1) per call: the last `window` calls repeat a pattern of length L exactly when each of their
 * calls after the first L equals the one L before it, i.e. when the last `window - L` calls each matched the
 * call L before them. So for each L the detector counts how many calls in a row did, and never rescans the
 * window; it finds what a detector rescanning the window after every call finds on the same record
 * (test/actors/agent/session/loop-detector.test.ts compares it with one, `repeating-pattern.ts` there, on
 * random call sequences).
 *
 * Two calls are the same when their tool names and canonical argument texts are. The texts are not built:
 * the arguments are compared (`sameJson`), after their digests (`jsonDigest`, once per call) told most
 * different calls apart. The window is kept as three rings (names, arguments, digests) rather than an object
 * per call: one allocation fewer per tool call (decision 0041). The
 * arguments are the call's, which the history keeps unchanged (they go back to the model verbatim).
 */
export class LoopDetector {
  readonly window: number;
  /** The last `window` calls: call number n (since the last report) sits at n % window of each ring. */
  private readonly names: string[] = [];
  private readonly args: unknown[] = [];
  private readonly digests: (number | undefined)[] = [];
  /** Calls recorded since the last report. */
  private count = 0;
  /** Pattern lengths worth checking: a pattern must repeat at least twice within the window. */
  private readonly lengths: number;
  /** runs[L - 1]: how many of the latest calls in a row equal the call L before them. */
  private readonly runs = [0, 0, 0];

  constructor(window: number) {
    this.window = window;
    this.lengths = Math.min(MAX_PATTERN, Math.floor(window / 2));
  }

  /** Records one call; returns the detection when the window now shows a loop. */
  record(toolName: string, args: unknown): LoopDetection | undefined {
    const digest = jsonDigest(args);
    const n = this.count;
    const window = this.window;
    const runs = this.runs;
    for (let length = 1; length <= this.lengths; length++) {
      runs[length - 1] =
        n >= length && this.sameAs((n - length) % window, toolName, args, digest) ? runs[length - 1]! + 1 : 0;
    }
    const at = n % window;
    this.names[at] = toolName;
    this.args[at] = args;
    this.digests[at] = digest;
    this.count = n + 1;
    if (this.count < window) return undefined;
    for (let length = 1; length <= this.lengths; length++) {
      if (runs[length - 1]! < window - length) continue;
      const first = this.count - window;
      const pattern: string[] = [];
      for (let i = 0; i < length; i++) pattern.push(this.names[(first + i) % window]!);
      this.count = 0;
      runs.fill(0);
      return { pattern, window };
    }
    return undefined;
  }

  /** Whether the call at ring position `at` has the same tool name and canonical arguments. */
  private sameAs(at: number, toolName: string, args: unknown, digest: number | undefined): boolean {
    // The tool name starts the key, and no argument text can make up for a different one.
    if (this.names[at] !== toolName) return false;
    const other = this.digests[at];
    // Different digests are different canonical texts; equal ones prove nothing.
    if (other !== digest && other !== undefined && digest !== undefined) return false;
    const earlier = this.args[at];
    return sameJson(earlier, args) ?? keyOf(toolName, earlier) === keyOf(toolName, args);
  }
}
