import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test, vi } from 'vitest';
import {
  OUTPUT_CACHE_LIMIT,
  patchInkMeasureText,
  patchInkOutput,
  patchInkWrapText,
  patchStyledChars,
  patchTokenize,
  // @ts-expect-error: a build script, plain JavaScript without types
} from '../../scripts/ink-output-patches.mjs';
// @ts-expect-error: a build script, plain JavaScript without types
import { narrowCodePoints, narrowLinePattern } from '../../scripts/narrow-width-class.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const modules = path.join(root, 'node_modules');
const scratch = mkdtempSync(path.join(tmpdir(), 'attractor-ink-patches-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A package's ES entry, as Node would resolve a bare import from our node_modules. */
function entryOf(name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(modules, name, 'package.json'), 'utf8'));
  const dot = manifest.exports?.['.'] ?? manifest.exports;
  const target = typeof dot === 'string' ? dot : (dot?.import ?? dot?.default ?? manifest.main);
  return path.join(modules, name, target);
}

let loaded = 0;
/**
 * Imports `text` as if it were the module at `file` (node_modules/…): written elsewhere, with every import
 * pointing at what the original's would resolve to, so the patched copy runs beside the real one.
 */
async function importAs(file: string, text: string): Promise<Record<string, unknown>> {
  const absolute = path.join(modules, file);
  const rewritten = text.replace(/(from\s+|import\s+)(["'])([^"']+)\2/g, (_all, keyword, quote, spec) => {
    const target = spec.startsWith('.') ? path.resolve(path.dirname(absolute), spec) : entryOf(spec);
    return `${keyword}${quote}${pathToFileURL(target).href}${quote}`;
  });
  loaded += 1;
  const copy = path.join(scratch, `${loaded}-${path.basename(file)}`);
  writeFileSync(copy, rewritten.replace(/^\/\/# sourceMappingURL=.*$/m, ''));
  return import(pathToFileURL(copy).href);
}

const original = (file: string) => import(pathToFileURL(path.join(modules, file)).href);
const source = (file: string) => readFileSync(path.join(modules, file), 'utf8');

/** A deterministic pseudo-random source (tests must not flake). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const STYLES = ['\u001b[1m', '\u001b[2m', '\u001b[22m', '\u001b[31m', '\u001b[39m', '\u001b[7m', '\u001b[0m'];
const STYLES_MORE = ['\u001b[38;5;208m', '\u001b[48;2;1;2;3m', '\u001b[3m', '\u001b[23m', '\u001b[27m'];
const OTHERS = ['漢', '✅', 'e\u0301', '👍🏽', '\u200d', '\ufe0f', '🇫🇷', '\t', '\u0007', '\u009b31m'];
const LINK = '\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007';

/** Random terminal lines: mostly narrow text and SGR codes, sometimes wide, joining or control ones. */
function randomLines(seed: number, count: number, narrow: string[]): string[] {
  const random = lcg(seed);
  const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)] as string;
  return Array.from({ length: count }, () => {
    let line = '';
    const length = Math.floor(random() * 40);
    for (let j = 0; j < length; j++) {
      const r = random();
      if (r < 0.15) line += pick(STYLES);
      else if (r < 0.2) line += pick(STYLES_MORE);
      else if (r < 0.24) line += pick(OTHERS);
      else if (r < 0.25) line += LINK;
      else line += pick(narrow);
    }
    return line;
  });
}

const inkWidth = (await import(pathToFileURL(entryOf('string-width')).href)).default;
const narrowPattern: string = narrowLinePattern(narrowCodePoints(inkWidth));
const narrowChars = [...'abc XYZ 0123 ─│╭╮⠋✓✗○·→…', 'ä', 'ß', 'Ω', 'Ж', 'א', 'ا'];

describe('tokenize without a segmenter for one-unit graphemes', () => {
  const file = '@alcalzone/ansi-tokenize/build/tokenize.js';

  test('gives exactly the tokens of the original', async () => {
    const before = await original(file);
    const after = await importAs(file, patchTokenize(source(file), narrowPattern));
    for (const line of randomLines(7, 3000, narrowChars)) {
      expect((after.tokenize as (s: string) => unknown)(line), JSON.stringify(line)).toEqual(
        before.tokenize(line),
      );
      expect((after.tokenize as (s: string, end: number) => unknown)(line, 5)).toEqual(
        before.tokenize(line, 5),
      );
    }
  }, 60_000);

  test('segments only lines that need it', async () => {
    const after = await importAs(file, patchTokenize(source(file), narrowPattern));
    const tokenize = after.tokenize as (s: string) => unknown;
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      tokenize('\u001b[1m─ ✓ done\u001b[22m · 1.2s');
      expect(segment).not.toHaveBeenCalled();
      tokenize('done ✅');
      expect(segment).toHaveBeenCalledTimes(1);
    } finally {
      segment.mockRestore();
    }
  });

  test('refuses a module of another shape', () => {
    expect(() => patchTokenize('export function tokenize() {}', narrowPattern)).toThrow(/revisit this patch/);
  });
});

interface StyledChar {
  type: 'char';
  value: string;
  fullWidth: boolean;
  styles: unknown[];
}

describe('styledCharsToString skips the diff between cells of one style', () => {
  const file = '@alcalzone/ansi-tokenize/build/styledChars.js';

  test('gives exactly the text of the original, for rows mixed as Ink mixes them', async () => {
    const tokens = await original('@alcalzone/ansi-tokenize/build/tokenize.js');
    const before = await original(file);
    const after = await importAs(file, patchStyledChars(source(file)));
    const random = lcg(11);
    // Rows of characters as the patched module makes them (a run shares its styles) and as the original does.
    const lines = randomLines(13, 600, narrowChars).map((line, i) =>
      i % 2 === 0
        ? ((after.styledCharsFromTokens as (t: unknown) => StyledChar[])(
            tokens.tokenize(line),
          ) as StyledChar[])
        : (before.styledCharsFromTokens(tokens.tokenize(line)) as StyledChar[]),
    );
    const blank = (): StyledChar => ({ type: 'char', value: ' ', fullWidth: false, styles: [] });
    for (let i = 0; i < 2000; i++) {
      // A grid row: blank cells with pieces of one or more lines written over them.
      const row: StyledChar[] = Array.from({ length: 60 }, blank);
      for (let w = Math.floor(random() * 3); w >= 0; w--) {
        const chars = lines[Math.floor(random() * lines.length)] as StyledChar[];
        const at = Math.floor(random() * 50);
        chars.slice(0, 60 - at).forEach((char, k) => {
          row[at + k] = char;
        });
      }
      const cut = row.slice(0, Math.floor(random() * 61));
      expect((after.styledCharsToString as (r: StyledChar[]) => string)(cut)).toBe(
        before.styledCharsToString(cut),
      );
    }
  });

  test('styledCharsFromTokens gives equal characters, a run sharing one styles array', async () => {
    const tokens = await original('@alcalzone/ansi-tokenize/build/tokenize.js');
    const before = await original(file);
    const after = await importAs(file, patchStyledChars(source(file)));
    const fromTokens = after.styledCharsFromTokens as (t: unknown) => StyledChar[];
    for (const line of randomLines(23, 1000, narrowChars)) {
      expect(fromTokens(tokens.tokenize(line)), JSON.stringify(line)).toEqual(
        before.styledCharsFromTokens(tokens.tokenize(line)),
      );
    }
    const chars = fromTokens(tokens.tokenize('\u001b[31mred\u001b[39m plain'));
    expect(chars[0]?.styles).toBe(chars[2]?.styles);
    expect(chars[3]?.styles).not.toBe(chars[2]?.styles);
  });

  test('refuses a module of another shape', () => {
    expect(() => patchStyledChars('export function styledCharsToString(x) {}')).toThrow(/revisit this patch/);
  });
});

interface OutputLike {
  caches: { styledChars: { current: Map<string, unknown>; old: Map<string, unknown> } };
  write(x: number, y: number, text: string, options: { transformers: unknown[] }): void;
  clip(clip: Record<string, number>): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (size: { width: number; height: number }) => OutputLike;

describe("Ink's Outputs share their caches", () => {
  const file = 'ink/build/output.js';

  test('frames come out the same, and each line is tokenized once across frames', async () => {
    const Before = (await original(file)).default as OutputClass;
    const After = (await importAs(file, patchInkOutput(source(file)))).default as OutputClass;
    const lines = randomLines(17, 200, narrowChars);
    /** One frame: a line per row at a random column, rows 6 to 9 clipped as a bordered box clips. */
    const draw = (Output: OutputClass, frame: number, next: () => number) => {
      const output = new Output({ width: 50, height: 12 });
      for (let y = 0; y < 12; y++) {
        if (y === 6) output.clip({ x1: 2, x2: 40, y1: 6, y2: 9 });
        output.write(Math.floor(next() * 8), y, lines[(frame + y) % lines.length] as string, {
          transformers: [],
        });
        if (y === 9) output.unclip();
      }
      return output.get();
    };
    for (let frame = 0; frame < 40; frame++) {
      expect(draw(After, frame, lcg(frame + 1))).toEqual(draw(Before, frame, lcg(frame + 1)));
    }

    const first = new After({ width: 20, height: 1 });
    expect(new After({ width: 20, height: 1 }).caches).toBe(first.caches);
    first.write(0, 0, 'cached line', { transformers: [] });
    first.get();
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      const next = new After({ width: 20, height: 1 });
      next.write(0, 0, 'cached line', { transformers: [] });
      expect(next.get().output).toBe('cached line');
      expect(segment).not.toHaveBeenCalled();
    } finally {
      segment.mockRestore();
    }
  });

  test('the caches hold at most two generations', async () => {
    const After = (await importAs(file, patchInkOutput(source(file)))).default as OutputClass;
    let output = new After({ width: 20, height: 1 });
    for (let i = 0; i < OUTPUT_CACHE_LIMIT * 3 + 5; i++) {
      output = new After({ width: 20, height: 1 });
      output.write(0, 0, `line ${i}`, { transformers: [] });
      output.get();
    }
    const { current, old } = output.caches.styledChars;
    expect(current.size + old.size).toBeLessThanOrEqual(2 * OUTPUT_CACHE_LIMIT);
    expect(current.size).toBeGreaterThan(0);
    // A line in use survives generation changes: read from the old generation, it moves to the new one.
    output.write(0, 0, 'kept', { transformers: [] });
    output.get();
    for (let i = 0; i < OUTPUT_CACHE_LIMIT * 2; i++) {
      output = new After({ width: 20, height: 1 });
      output.write(0, 0, i % 100 === 0 ? 'kept' : `other ${i}`, { transformers: [] });
      output.get();
    }
    expect(output.caches.styledChars.current.has('kept') || output.caches.styledChars.old.has('kept')).toBe(
      true,
    );
  });

  test('refuses a module of another shape', () => {
    expect(() => patchInkOutput('export default class Output {}')).toThrow(/revisit this patch/);
  });
});

describe("Ink's text measuring and wrapping caches are bounded", () => {
  test('measuring: the same sizes, and old texts are let go', async () => {
    const file = 'ink/build/measure-text.js';
    const unpatched = (await original(file)).default as (text: string) => { width: number; height: number };
    const patched = (await importAs(file, patchInkMeasureText(source(file)))).default as typeof unpatched;
    for (const line of randomLines(29, 500, narrowChars)) {
      const text = `${line}\n${line.slice(3)}`;
      expect(patched(text)).toEqual(unpatched(text));
    }
    const first = patched('the first text');
    for (let i = 0; i < OUTPUT_CACHE_LIMIT * 2 + 1; i++) patched(`text ${i}`);
    // Let go: measured again, a new object (the unpatched module keeps returning the first one).
    expect(patched('the first text')).not.toBe(first);
    expect(patched('the first text')).toEqual(first);
    const kept = unpatched('kept by the original');
    for (let i = 0; i < OUTPUT_CACHE_LIMIT * 2 + 1; i++) unpatched(`text ${i}`);
    expect(unpatched('kept by the original')).toBe(kept);
  });

  test('wrapping: the same text for every wrap mode', async () => {
    const file = 'ink/build/wrap-text.js';
    type Wrap = (text: string, width: number, mode: string) => string;
    const unpatched = (await original(file)).default as Wrap;
    const patched = (await importAs(file, patchInkWrapText(source(file)))).default as Wrap;
    const modes = ['wrap', 'truncate', 'truncate-end', 'truncate-middle', 'truncate-start'];
    randomLines(31, 400, narrowChars).forEach((line, i) => {
      const mode = modes[i % modes.length] as string;
      const width = 1 + (i % 23);
      expect(patched(line, width, mode), JSON.stringify([line, width, mode])).toBe(
        unpatched(line, width, mode),
      );
      expect(patched(line, width, mode)).toBe(unpatched(line, width, mode));
    });
  });

  test('refuse modules of another shape', () => {
    expect(() => patchInkMeasureText('const cache = {};')).toThrow(/revisit this patch/);
    expect(() => patchInkWrapText('const cache = new Map();')).toThrow(/revisit this patch/);
  });
});
