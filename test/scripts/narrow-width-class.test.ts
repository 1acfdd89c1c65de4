import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import stripAnsi from 'strip-ansi';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript without types
import { fastPathSource, narrowCodePoints, narrowLinePattern } from '../../scripts/narrow-width-class.mjs';

type Width = (text: string, options?: object) => number;
type Ranges = Array<[number, number]>;

/** The wrapper the TUI bundle gives a string-width copy, built from the source the build appends. */
function withFastPath(slowWidth: Width, pattern: string): Width {
  const source = (fastPathSource(pattern) as string).replace('export default ', '');
  return new Function('stripAnsi', 'slowWidth', `${source}\nreturn stringWidth;`)(
    stripAnsi,
    slowWidth,
  ) as Width;
}

/** A deterministic pseudo-random source (tests must not flake). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Both copies the bundle patches (scripts/bundle-tui.mjs): Ink's and wrap-ansi's own older one.
const COPIES = [
  ['string-width (Ink)', 'node_modules/string-width/index.js'],
  ['string-width (wrap-ansi)', 'node_modules/wrap-ansi/node_modules/string-width/index.js'],
] as const;

describe.each(COPIES)('%s', (_name, specifier) => {
  test('the fast path answers exactly what the module answers', async () => {
    const slowWidth = (await import(pathToFileURL(path.join(root, specifier)).href)).default as Width;
    const ranges = narrowCodePoints(slowWidth) as Ranges;
    const pattern = narrowLinePattern(ranges) as string;
    const fast = withFastPath(slowWidth, pattern);
    const narrow: number[] = ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));

    // Box drawing, spinner frames and status marks the TUI draws are in; wide, joining and emoji ones are not.
    for (const c of '─│╭╮╰╯⠋⠙✓✗○◐↻⊘▸▾…·→≡✻') expect(narrow).toContain(c.codePointAt(0));
    for (const c of ['漢', '✅', '\u0301', '\u200d', '\ufe0f', '\u1160', '\u00ad']) {
      expect(narrow).not.toContain(c.codePointAt(0));
    }

    const random = lcg(42);
    const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)] as string;
    const narrowChars = narrow.map((cp) => String.fromCharCode(cp));
    const others = ['漢', '✅', 'e\u0301', '👍🏽', '\u200d', '\ufe0f', '🇫🇷', '\t', '\u001b[31m', '\u001b[0m'];
    for (let i = 0; i < 3000; i++) {
      const length = Math.floor(random() * 30);
      let text = '';
      for (let j = 0; j < length; j++) text += random() < 0.1 ? pick(others) : pick(narrowChars);
      expect(fast(text), JSON.stringify(text)).toBe(slowWidth(text));
    }
    expect(fast('\u001b[1m─ ✓ done\u001b[22m')).toBe(8);
    expect(fast('')).toBe(0);
    // Options go to the module untouched.
    expect(fast('±', { ambiguousIsNarrow: false })).toBe(slowWidth('±', { ambiguousIsNarrow: false }));
  }, 60_000);
});
