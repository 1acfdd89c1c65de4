import { describe, expect, it } from 'vitest';
import {
  fingerprintToolCall,
  LoopDetector,
  loopWarningText,
  type ToolCallFingerprint,
} from '../../../src/agent/session/loop-detector.js';
import { createSession } from '../../../src/agent/session/session.js';
import { detectRepeatingPattern } from './repeating-pattern.js';
import { collect, scripted, testEnv, testProfile } from './session-fixtures.js';

const call = (letter: string) => fingerprintToolCall('read_file', { path: `${letter}.py` });
const sequence = (letters: string) => [...letters].map(call);
/** Feeds a fingerprinted call to the detector (which takes the name and the arguments). */
const record = (detector: LoopDetector, fingerprint: ToolCallFingerprint) =>
  detector.record(fingerprint.toolName, fingerprint.arguments);

describe('detectRepeatingPattern', () => {
  it.each([
    ['AAAAAAAAAA', 10, 'A'],
    ['ABABABABAB', 10, 'AB'],
    ['ABCABCABCA', 10, 'ABC'],
    ['XYZABCABCABCA', 10, 'ABC'],
    ['AAAAAAAAA', 10, undefined],
    ['AAAAAAAAAB', 10, undefined],
    ['ABCDABCDAB', 10, undefined],
    ['ABCABCABCB', 10, undefined],
    ['AAAA', 4, 'A'],
    ['ABAB', 4, 'AB'],
    ['ABCABC', 6, 'ABC'],
  ])('%s in a window of %i → %s', (letters, window, expected) => {
    const found = detectRepeatingPattern(sequence(letters), window);
    expect(found?.map((c) => c.key)).toEqual(expected ? sequence(expected).map((c) => c.key) : undefined);
  });

  it('fingerprints by tool name and canonical arguments', () => {
    expect(fingerprintToolCall('grep', { a: 1, b: [{ y: 2, x: 1 }] }).key).toBe(
      fingerprintToolCall('grep', { b: [{ x: 1, y: 2 }], a: 1 }).key,
    );
    expect(fingerprintToolCall('grep', { a: 1 }).key).not.toBe(fingerprintToolCall('glob', { a: 1 }).key);
    expect(fingerprintToolCall('grep', { a: 1 }).key).not.toBe(fingerprintToolCall('grep', { a: 2 }).key);
  });

  it('reports once per full window, then starts over', () => {
    const detector = new LoopDetector(4);
    const reports = sequence('AAAAAAAAA').map((c) => record(detector, c));
    expect(reports.map((r) => (r ? r.pattern.length : 0))).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  });
});

/** The detector as it was before it became incremental: keep the last `window` calls, rescan them each time. */
class RescanningDetector {
  private calls: ToolCallFingerprint[] = [];
  constructor(readonly window: number) {}
  record(call: ToolCallFingerprint): { pattern: string[]; window: number } | undefined {
    this.calls.push(call);
    if (this.calls.length > this.window) this.calls.shift();
    const found = detectRepeatingPattern(this.calls, this.window);
    if (!found) return undefined;
    this.calls = [];
    return { pattern: found.map((c) => c.toolName), window: this.window };
  }
}

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('LoopDetector is the rescanning detector, one call at a time', () => {
  const tools = ['read_file', 'grep', 'shell'];
  // Small alphabets make loops common; runs of a repeated pattern with noise make near misses common.
  it.each(Array.from({ length: 40 }, (_, seed) => seed))('random call sequence, seed %i', (seed) => {
    const next = random(seed + 1);
    const window = 2 + Math.floor(next() * 11);
    const alphabet = 1 + Math.floor(next() * 4);
    const detector = new LoopDetector(window);
    const reference = new RescanningDetector(window);
    let pattern: ToolCallFingerprint[] = [];
    let detections = 0;
    for (let i = 0; i < 600; i++) {
      if (pattern.length === 0 || next() < 0.05) {
        pattern = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
          fingerprintToolCall(tools[Math.floor(next() * tools.length)]!, {
            n: Math.floor(next() * alphabet),
          }),
        );
      }
      const call =
        next() < 0.1
          ? fingerprintToolCall(tools[Math.floor(next() * tools.length)]!, {
              n: Math.floor(next() * alphabet),
            })
          : pattern[i % pattern.length]!;
      const expected = reference.record(call);
      expect(record(detector, call), `call ${i}`).toEqual(expected);
      if (expected) detections++;
    }
    // The sequences are built to loop: an equivalence that never sees a detection proves little.
    expect(detections).toBeGreaterThan(0);
  });

  it.each([
    ['ABCABCABCA', 10],
    ['XYZABCABCABCA', 10],
    ['AAAAAAAAAB', 10],
    ['ABABABABABABABABABAB', 4],
    ['ABCDABCDABCDABCD', 8],
    ['AABAABAABAAB', 6],
    ['ABAB', 2],
    ['AAAAAAAAAAAAAAAAAAAAAAAAAA', 3],
  ])('%s in a window of %i', (letters, window) => {
    const detector = new LoopDetector(window);
    const reference = new RescanningDetector(window);
    for (const fingerprint of sequence(letters)) {
      expect(record(detector, fingerprint)).toEqual(reference.record(fingerprint));
    }
  });
});

describe('LoopDetector where only the canonical texts can tell', () => {
  // `{}` and `{ a: undefined }` have the same text, so do Infinity and null: sameJson leaves them to the keys.
  it.each([
    [[{}, { a: undefined }], 4, 1],
    [[{ x: Number.POSITIVE_INFINITY }, { x: null }], 6, 1],
    // The canonical rebuild turns a Date into `{}` (it keeps own keys only): the keys say so, and so does the detector.
    [[{ d: new Date(0) }, { d: {} }], 4, 1],
    [[{ d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' }], 4, 2],
    [[{ a: [undefined] }, { a: [1] }], 4, 2],
  ])('%j in a window of %i: a pattern of %i', (variants, window, length) => {
    const detector = new LoopDetector(window);
    const reference = new RescanningDetector(window);
    let found: ReturnType<LoopDetector['record']>;
    for (let i = 0; i < window; i++) {
      const fingerprint = fingerprintToolCall('grep', variants[i % variants.length]);
      found = record(detector, fingerprint);
      expect(found).toEqual(reference.record(fingerprint));
    }
    expect(found?.pattern).toHaveLength(length);
  });
});

describe('Session loop detection', () => {
  it('injects the warning as a message the model reads and emits LOOP_DETECTION, without stopping', async () => {
    let i = 0;
    const { adapter, client } = scripted(() => {
      i += 1;
      return i <= 10 ? { toolCalls: [{ name: 'echo', arguments: { text: 'same' } }] } : 'changed approach';
    });
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const events = await collect(session.submit('go'));
    const detections = events.filter((e) => e.kind === 'loop_detection');
    expect(detections).toHaveLength(1);
    expect(detections[0]!.data).toMatchObject({ pattern: ['echo'], window: 10 });
    const last = adapter.calls.at(-1)!.request.messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.content[0]).toEqual({ kind: 'text', text: loopWarningText(10) });
    expect(events.at(-1)!.kind).toBe('processing_end');
  });

  it('detects an alternating pattern of two different calls in the configured window', async () => {
    const { client } = scripted((_, index) =>
      index < 6 ? { toolCalls: [{ name: 'echo', arguments: { text: index % 2 ? 'b' : 'a' } }] } : 'ok',
    );
    const session = createSession({
      client,
      profile: testProfile(),
      env: testEnv(),
      config: { loopDetectionWindow: 6 },
    });
    const events = await collect(session.submit('go'));
    expect(events.find((e) => e.kind === 'loop_detection')!.data).toMatchObject({
      pattern: ['echo', 'echo'],
    });
  });

  it('stays quiet when disabled', async () => {
    const { client } = scripted((_, index) =>
      index < 12 ? { toolCalls: [{ name: 'echo', arguments: { text: 'same' } }] } : 'ok',
    );
    const session = createSession({
      client,
      profile: testProfile(),
      env: testEnv(),
      config: { enableLoopDetection: false },
    });
    const events = await collect(session.submit('go'));
    expect(events.some((e) => e.kind === 'loop_detection')).toBe(false);
  });
});
