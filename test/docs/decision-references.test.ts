import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DECISIONS = join(ROOT, 'docs', 'decisions');

/** Where a decision record may be cited: the code, its tests and every document of the repository. */
const SCANNED = [
  'src',
  'test',
  'docs',
  'bench',
  'examples',
  'scripts',
  'README.md',
  'ARCHITECTURE.md',
  'vitest.config.ts',
];
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|md|dot|json|jsonc|css|html|ya?ml|sh)$/;

/** A citation of a record: its number, and the file name when the citation spells one out. */
interface Citation {
  number: string;
  file?: string;
  line: number;
}

/**
 * Every record a text cites: `docs/decisions/NNNN-title.md` or `docs/decisions/NNNN` (paths, links),
 * `NNNN-title.md` links between records, and "decision NNNN" / "decisions NNNN, NNNN and NNNN" in prose.
 */
function citedRecords(text: string): Citation[] {
  const found: Citation[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(/decisions\/(\d{4})(-[a-z0-9-]+\.md)?(?![0-9])/g)) {
    const file = m[2] === undefined ? undefined : `${m[1]}${m[2]}`;
    found.push({ number: m[1] ?? '', ...(file ? { file } : {}), line: lineAt(m.index) });
  }
  for (const m of text.matchAll(/\]\((\d{4})(-[a-z0-9-]+\.md)\)/g))
    found.push({ number: m[1] ?? '', file: `${m[1]}${m[2]}`, line: lineAt(m.index) });
  for (const m of text.matchAll(/\b[Dd]ecisions? (\d{4}(?:(?:, | and |, and |–)\d{4})*)(?![0-9])/g))
    for (const number of (m[1] ?? '').match(/\d{4}/g) ?? []) found.push({ number, line: lineAt(m.index) });
  return found;
}

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return TEXT.test(path) ? [path] : [];
  return readdirSync(path)
    .filter((name) => name !== 'node_modules' && !name.startsWith('.'))
    .flatMap((name) => filesUnder(join(path, name)));
}

const records = readdirSync(DECISIONS).filter((name) => /^\d{4}-.+\.md$/.test(name));
const numbers = new Set(records.map((name) => name.slice(0, 4)));

describe('citedRecords', () => {
  it.each([
    ['a path', 'see docs/decisions/0470-one-write-lane.md.', [['0470', '0470-one-write-lane.md']]],
    ['a number-only path', '(docs/decisions/0024)', [['0024', undefined]]],
    ['a link between records', '([0011](0011-child.md))', [['0011', '0011-child.md']]],
    ['prose', 'as decision 0221 says', [['0221', undefined]]],
    ['a list in prose', 'decisions 0470, 0010 and 0002', [['0470'], ['0010'], ['0002']]],
    ['a price is no citation', 'cost $0.0412, 10 decisions', []],
  ])('finds %s', (_name, text, expected) => {
    const got = citedRecords(text).map((c) => (c.file === undefined ? [c.number] : [c.number, c.file]));
    expect(got).toEqual(expected.map((e) => (e[1] === undefined ? [e[0]] : e)));
  });
});

describe('decision records', () => {
  it('are each listed in docs/decisions/README.md, and every listed one exists', () => {
    const index = readFileSync(join(DECISIONS, 'README.md'), 'utf8');
    const listed = [...index.matchAll(/\]\((\d{4}-[a-z0-9-]+\.md)\)/g)].map((m) => m[1]);
    expect([...listed].sort()).toEqual([...records].sort());
  });

  it('have one file per number', () => {
    expect(numbers.size).toBe(records.length);
  });

  it('are cited only where they exist, by their own file name', () => {
    const dangling: string[] = [];
    for (const file of SCANNED.flatMap((path) => filesUnder(join(ROOT, path)))) {
      if (resolve(file) === fileURLToPath(import.meta.url)) continue;
      for (const citation of citedRecords(readFileSync(file, 'utf8'))) {
        const exists = citation.file ? records.includes(citation.file) : numbers.has(citation.number);
        if (!exists)
          dangling.push(`${relative(ROOT, file)}:${citation.line} cites ${citation.file ?? citation.number}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it('link from the documents only to files that exist', () => {
    const broken: string[] = [];
    const documents = ['README.md', 'ARCHITECTURE.md', 'docs', 'bench', 'examples'].flatMap((path) =>
      filesUnder(join(ROOT, path)).filter((file) => file.endsWith('.md')),
    );
    for (const file of documents) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
        const target = m[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(resolve(dirname(file), target))) broken.push(`${relative(ROOT, file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('documents a maintainer reads', () => {
  it.each([
    ['ARCHITECTURE.md', 200, 'lines', (text: string) => text.trimEnd().split('\n').length],
    ['bench/README.md', 8_000, 'characters', (text: string) => text.length],
  ])('%s stays within %i %s', (file, limit, _unit, measure) => {
    expect(measure(readFileSync(join(ROOT, file), 'utf8'))).toBeLessThanOrEqual(limit);
  });
});
