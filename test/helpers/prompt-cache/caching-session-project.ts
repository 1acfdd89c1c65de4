/**
 * The small project the measured agent session works on: a slug module with a bug (capitals and repeated
 * hyphens), its tests, a README and the AGENTS.md a real repository would have (its instructions go into the
 * system prompt). Sizes are those of an ordinary module: the session reads about 4,000 tokens of files.
 */

export const SLUGIFY = `// Turns titles into URL slugs for the blog's permalinks, and file names into titles.
// A slug keeps ASCII letters and digits, lowercased, joined by single hyphens.

/** Characters that separate words in a title. */
const SEPARATORS = /[\\s_.,;:!?/\\\\()[\\]{}"'\`]+/;

/** Letters that Unicode normalisation does not reduce to ASCII, and what they become. */
const TRANSLITERATIONS = new Map([
  ['ß', 'ss'],
  ['æ', 'ae'],
  ['Æ', 'AE'],
  ['ø', 'o'],
  ['Ø', 'O'],
  ['œ', 'oe'],
  ['Œ', 'OE'],
  ['ł', 'l'],
  ['Ł', 'L'],
  ['đ', 'd'],
  ['Đ', 'D'],
  ['þ', 'th'],
  ['Þ', 'Th'],
]);

/** Words dropped from slugs when \`dropStopWords\` is set. */
const STOP_WORDS = new Set(['a', 'an', 'and', 'the', 'of', 'to', 'in', 'on', 'for', 'with']);

/**
 * Replaces accented Latin letters by their base letter, so "Crème brûlée" becomes "Creme brulee", and the
 * letters normalisation leaves alone by their usual transliteration ("Straße" becomes "Strasse").
 * Letters outside Latin are dropped by slugify afterwards.
 */
export function stripAccents(text) {
  let out = '';
  for (const char of text.normalize('NFD')) {
    if (/[\\u0300-\\u036f]/.test(char)) continue;
    out += TRANSLITERATIONS.get(char) ?? char;
  }
  return out;
}

/** The words of a title, accents stripped, anything but ASCII letters, digits and hyphens removed. */
export function titleWords(title, { dropStopWords = false } = {}) {
  return stripAccents(title)
    .split(SEPARATORS)
    .map((word) => word.replace(/[^A-Za-z0-9-]/g, ''))
    .filter((word) => word !== '' && !(dropStopWords && STOP_WORDS.has(word.toLowerCase())));
}

/**
 * The slug of a title: words separated by single hyphens, lowercase, no leading or trailing hyphen.
 * Returns an empty string for a title without letters or digits.
 *
 * Options: \`maxLength\` (default 80) cuts long slugs; \`dropStopWords\` leaves out "a", "the", "of", ...
 */
export function slugify(title, { maxLength = 80, dropStopWords = false } = {}) {
  const words = titleWords(title, { dropStopWords });
  let slug = words.join('-');
  if (slug.length > maxLength) slug = slug.slice(0, maxLength);
  return slug;
}

/** Whether \`text\` is already a slug as slugify makes them. */
export function isSlug(text) {
  return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(text);
}

/** Makes a slug unique among \`taken\` by appending -2, -3, ... */
export function uniqueSlug(title, taken, options = {}) {
  const base = slugify(title, options);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = \`\${base}-\${n}\`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The title a file name stands for: "2024-05-01-my-first-post.md" gives "My first post" (a leading date
 * and the extension are dropped, hyphens and underscores become spaces, the first letter is capitalised).
 */
export function titleFromFilename(name) {
  const stem = name.replace(/\\.[A-Za-z0-9]+$/, '').replace(/^\\d{4}-\\d{2}-\\d{2}-/, '');
  const words = stem.split(/[-_]+/).filter(Boolean);
  if (words.length === 0) return '';
  const text = words.join(' ');
  return text[0].toUpperCase() + text.slice(1);
}

/** The permalink path of a post: its date as folders, then its slug. */
export function permalink(post) {
  const date = new Date(post.date);
  const yyyy = String(date.getUTCFullYear());
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  return \`/\${yyyy}/\${mm}/\${post.slug ?? slugify(post.title)}/\`;
}
`;

export const FIXED = SLUGIFY.replace(
  "  let slug = words.join('-');",
  "  let slug = words.join('-').toLowerCase().replace(/-+/g, '-').replace(/^-|-$/g, '');",
).replace('slug = slug.slice(0, maxLength);', "slug = slug.slice(0, maxLength).replace(/-+$/, '');");

export const TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isSlug,
  permalink,
  slugify,
  stripAccents,
  titleFromFilename,
  uniqueSlug,
} from '../src/slugify.mjs';

test('lowercases and joins words with single hyphens', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
  assert.equal(slugify('  Many   spaces -- here '), 'many-spaces-here');
});

test('strips accents and transliterates', () => {
  assert.equal(stripAccents('Crème brûlée'), 'Creme brulee');
  assert.equal(slugify('Crème Brûlée Recipes'), 'creme-brulee-recipes');
  assert.equal(slugify('Straße in Łódź'), 'strasse-in-lodz');
});

test('cuts long titles without a trailing hyphen', () => {
  const slug = slugify('word '.repeat(40), { maxLength: 12 });
  assert.equal(slug, 'word-word-wo');
  assert.ok(!slug.endsWith('-'));
});

test('drops stop words when asked', () => {
  assert.equal(slugify('The Art of the Deal', { dropStopWords: true }), 'art-deal');
});

test('makes slugs unique', () => {
  assert.equal(uniqueSlug('Hello', new Set(['hello', 'hello-2'])), 'hello-3');
});

test('every slug slugify makes is a slug', () => {
  for (const title of ['Hello, World!', 'A -- B', 'Crème', '2024 in review']) assert.ok(isSlug(slugify(title)));
});

test('titles from file names and permalinks', () => {
  assert.equal(titleFromFilename('2024-05-01-my-first-post.md'), 'My first post');
  assert.equal(permalink({ date: '2024-05-01', title: 'My First Post' }), '/2024/05/my-first-post/');
});
`;

export const README = `# slugs

Small helpers for the blog engine: \`slugify(title)\` turns a post title into the path segment of its permalink,
\`uniqueSlug(title, taken)\` makes it unique among existing posts, \`permalink(post)\` builds the whole path, and
\`titleFromFilename(name)\` guesses a title from a draft's file name.

## Rules

1. Only ASCII letters and digits are kept; accented Latin letters lose their accents first, and the letters
   that have no accent to lose are transliterated (ß → ss, æ → ae, ø → o, ł → l, þ → th).
2. Words are joined by a single hyphen; there is never a hyphen at either end.
3. Slugs are lowercase.
4. A slug longer than \`maxLength\` (80 by default) is cut, and a hyphen left at the cut is removed.
5. With \`dropStopWords\`, short function words (a, an, and, the, of, to, in, on, for, with) are left out.

## Tests

Run \`node --test test/\`. Every rule above has a test; add one with every fix.

## History

The permalinks of existing posts must never change: when a rule changes, the migration in the blog engine
rewrites old slugs and leaves redirects. Talk to the blog team before changing rule 1 or 2.
`;

export const AGENTS = `# Working on this repository

- Plain ES modules, no build step, no dependencies: keep it that way.
- Every change to a rule in README.md needs a test in test/slugify.test.mjs first.
- Run \`node --test test/\` before you finish; all tests must pass.
- Keep functions small and documented with a comment saying what they return.
- Do not rename exported functions: the blog engine imports them by name.
`;
