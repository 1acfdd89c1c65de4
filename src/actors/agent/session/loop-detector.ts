import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { jsonDigest } from './json-digest.js';
import { sameJson } from './same-json.js';

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
  return new ArgumentsFingerprint(toolName, args);
}

function keyOf(toolName: string, args: unknown): string {
  const text = canonicalJson(args);
  const digest =
    text.length <= HASH_ABOVE_CHARS ? text : createHash('sha256').update(text).digest('hex').slice(0, 32);
  return `${toolName}:${digest}`;
}

/**
 * A fingerprint that keeps the arguments and builds its key only when asked: the detector compares the
 * arguments themselves (`sameJson`), which for a model's arguments decides without the canonical text, and
 * the text (JSON.stringify, a hash for long ones) was most of what loop detection cost per call. The
 * arguments are the call's, which the history keeps unchanged (they are sent back to the model verbatim).
 * Their digest, computed once, tells most different calls apart without comparing them: each call is
 * compared with three others.
 */
class ArgumentsFingerprint implements ToolCallFingerprint {
  readonly toolName: string;
  readonly arguments: unknown;
  readonly digest: number | undefined;
  #key: string | undefined;

  constructor(toolName: string, args: unknown) {
    this.toolName = toolName;
    this.arguments = args;
    this.digest = jsonDigest(args);
  }

  get key(): string {
    if (this.#key === undefined) this.#key = keyOf(this.toolName, this.arguments);
    return this.#key;
  }
}

/** Whether two fingerprints have the same key, from the arguments when both have them. */
function sameCall(a: ToolCallFingerprint, b: ToolCallFingerprint): boolean {
  if (!(a instanceof ArgumentsFingerprint && b instanceof ArgumentsFingerprint)) return a.key === b.key;
  // The tool name starts the key, and no digest (JSON text or hex) can make up for a different one.
  if (a.toolName !== b.toolName) return false;
  // Different digests are different canonical texts; equal ones prove nothing.
  if (a.digest !== b.digest && a.digest !== undefined && b.digest !== undefined) return false;
  return sameJson(a.arguments, b.arguments) ?? a.key === b.key;
}

/** The message the model reads when a loop is found (public specification's wording). */
export function loopWarningText(window: number): string {
  return `Loop detected: the last ${window} tool calls follow a repeating pattern. Try a different approach.`;
}

/** Pattern lengths the detector looks for (public specification: repeating patterns of 1, 2 or 3 calls). */
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
 */
export class LoopDetector {
  readonly window: number;
  /** The last `window` calls, a ring: call number n (since the last report) sits at n % window. */
  private readonly ring: ToolCallFingerprint[] = [];
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
  record(call: ToolCallFingerprint): LoopDetection | undefined {
    const n = this.count;
    const window = this.window;
    const ring = this.ring;
    const runs = this.runs;
    for (let length = 1; length <= this.lengths; length++) {
      runs[length - 1] =
        n >= length && sameCall(ring[(n - length) % window]!, call) ? runs[length - 1]! + 1 : 0;
    }
    ring[n % window] = call;
    this.count = n + 1;
    if (this.count < window) return undefined;
    for (let length = 1; length <= this.lengths; length++) {
      if (runs[length - 1]! < window - length) continue;
      const first = this.count - window;
      const pattern: string[] = [];
      for (let i = 0; i < length; i++) pattern.push(ring[(first + i) % window]!.toolName);
      this.count = 0;
      runs.fill(0);
      return { pattern, window };
    }
    return undefined;
  }
}
