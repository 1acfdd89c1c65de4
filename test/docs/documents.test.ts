import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/compiler/compile.js';
import { blockCommandLines, inlineCommandLines, shellWords } from './command-lines.js';
import { headingAnchors, headingSlug, markdownLinks, splitMarkdown } from './markdown-text.js';
import { flagsOf, refusalOf } from './parse-command-line.js';

/**
 * What a new user reads must hold: every relative link of README.md, examples/README.md and docs/**.md
 * leads to a file that exists and, with a `#anchor`, to a heading it has; every `attractor …` command line they show parses
 * with the CLI's own argument parser (never run); every flag a synopsis names is one the command takes;
 * every whole `digraph` they show loads without an error.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function markdownUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return path.endsWith('.md') ? [path] : [];
  return readdirSync(path).flatMap((name) => markdownUnder(join(path, name)));
}
const DOCUMENTS = [
  join(ROOT, 'README.md'),
  join(ROOT, 'examples', 'README.md'),
  ...markdownUnder(join(ROOT, 'docs')),
];
const read = (file: string) => readFileSync(file, 'utf8');
const where = (file: string, line: number) => `${relative(ROOT, file)}:${line}`;

describe('the Markdown the document tests read', () => {
  it.each([
    ['Quick start', 'quick-start'],
    [
      'The terminal UI, `attractor attach` and the inspector',
      'the-terminal-ui-attractor-attach-and-the-inspector',
    ],
    [
      'What a command may do by default (Linux, with bubblewrap)',
      'what-a-command-may-do-by-default-linux-with-bubblewrap',
    ],
    ['Bring your own coding agent (ACP)', 'bring-your-own-coding-agent-acp'],
    ["The run's files — and `tree.git`", 'the-runs-files--and-treegit'],
    ['[Linked](x.md) heading', 'linked-heading'],
  ])('the anchor of %j is %s', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });

  it('numbers repeated headings and ignores # lines inside code blocks', () => {
    const text = '# A\n## Same\n```sh\n# not a heading\n```\n## Same\n<a id="c7"></a>\n';
    expect([...headingAnchors(text)]).toEqual(['a', 'same', 'same-1', 'c7']);
  });

  it('finds links in prose, not in code', () => {
    const text = 'See [x](a.md#b) and `[y](not.md)`.\n```md\n[z](nor.md)\n```\n![i](img.png)';
    expect(markdownLinks(text).map((l) => [l.target, l.line])).toEqual([
      ['a.md#b', 1],
      ['img.png', 5],
    ]);
  });

  it.each([
    [
      'npx attractor run a.dot --set "goal=a b" # note',
      ['npx', 'attractor', 'run', 'a.dot', '--set', 'goal=a b'],
    ],
    [
      "K=v attractor x 'it''s' 2> err.txt | head",
      ['K=v', 'attractor', 'x', 'its', '2', '>', 'err.txt', '|', 'head'],
    ],
  ])('reads the shell words of %j', (line, words) => {
    expect(shellWords(line)).toEqual(words);
  });

  it('finds the attractor commands of a chain, behind env and npx, without redirections', () => {
    const blocks = splitMarkdown(
      '```sh\nnpm ci && npx attractor run x.dot --dry-run\nA=1 attractor compile x.dot --format svg > x.svg\nls\n```',
    ).blocks;
    expect(blockCommandLines(blocks).map((c) => c.argv)).toEqual([
      ['run', 'x.dot', '--dry-run'],
      ['compile', 'x.dot', '--format', 'svg'],
    ]);
  });

  it('tells a synopsis from a command line, and fills placeholders', () => {
    const { commands, synopses } = inlineCommandLines(
      'Run `attractor resume <run dir> --max-cost 2`; usage `attractor runs [ROOT] [--json]`; `npm test`.',
    );
    expect(commands.map((c) => c.argv)).toEqual([['resume', '1', '--max-cost', '2']]);
    expect(synopses.map((c) => c.argv)).toEqual([['runs', '[ROOT]', '[--json]']]);
  });

  it('parses with the real CLI, refusing what the CLI refuses', async () => {
    expect(await refusalOf(['run', 'x.dot', '--dry-run', '--max-cost', '2'])).toBeUndefined();
    expect(await refusalOf(['run', 'x.dot', '--max-cost', 'abc'])).toMatch(/max-cost/);
    expect(await refusalOf(['run', 'x.dot', '--no-such-flag'])).toMatch(/unknown option/);
    expect(await refusalOf(['launch', 'x.dot'])).toMatch(/unknown command/);
    // Named in prose, a command may leave out its arguments; what it does give is still checked.
    expect(await refusalOf(['fork'])).toMatch(/--from/);
    expect(await refusalOf(['fork'], true)).toBeUndefined();
    expect(await refusalOf(['run', '--max-cost', 'abc'], true)).toMatch(/max-cost/);
    expect(await refusalOf(['worker', '--concurency', '2'], true)).toMatch(/unknown option/);
    expect(flagsOf('runs')).toContain('--prune');
  });
});

describe.each(DOCUMENTS.map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
  const text = read(file);

  it('links only to files that exist, and to headings they have', () => {
    const broken: string[] = [];
    for (const { target, line } of markdownLinks(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path = '', anchor] = target.split('#', 2);
      const linked = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(linked)) broken.push(`${where(file, line)} → ${target}: no such file`);
      else if (anchor !== undefined && linked.endsWith('.md') && !headingAnchors(read(linked)).has(anchor))
        broken.push(`${where(file, line)} → ${target}: no heading with that anchor`);
    }
    expect(broken).toEqual([]);
  });

  it('shows only attractor command lines the CLI parses', async () => {
    const { prose, blocks } = splitMarkdown(text);
    const lines = [
      ...blockCommandLines(blocks).map((command) => ({ ...command, mention: false })),
      ...inlineCommandLines(prose).commands.map((command) => ({ ...command, mention: true })),
    ];
    const refused: string[] = [];
    for (const { argv, source, line, mention } of lines) {
      const why = await refusalOf(argv, mention);
      if (why) refused.push(`${where(file, line)}: ${source} — ${why}`);
    }
    expect(refused).toEqual([]);
  });

  it('shows only whole pipelines that load without an error', () => {
    const failing: string[] = [];
    for (const block of splitMarkdown(text).blocks) {
      if (block.lang !== 'dot' || !/^\s*(strict\s+)?digraph\b/.test(block.text)) continue;
      try {
        const errors = loadPipeline(block.text, { file: file.replace(/\.md$/, '.dot') }).diagnostics.filter(
          (d) => d.severity === 'error',
        );
        for (const e of errors) failing.push(`${where(file, block.line)}: ${e.rule}: ${e.message}`);
      } catch (error) {
        failing.push(`${where(file, block.line)}: ${String(error)}`);
      }
    }
    expect(failing).toEqual([]);
  });

  it('names in its synopses only flags the commands take', () => {
    const wrong: string[] = [];
    for (const { argv, source, line } of inlineCommandLines(splitMarkdown(text).prose).synopses) {
      const flags = flagsOf(argv[0] ?? '');
      if (!flags) {
        wrong.push(`${where(file, line)}: ${source} — no command ${argv[0]}`);
        continue;
      }
      for (const flag of argv.join(' ').match(/--[a-z][a-z0-9-]*/g) ?? [])
        if (!flags.has(flag)) wrong.push(`${where(file, line)}: ${source} — ${argv[0]} has no ${flag}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("the README's Guides list", () => {
  it('links every guide in docs/guides/', () => {
    const readme = read(join(ROOT, 'README.md'));
    const start = readme.indexOf('\n## Guides\n');
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const listed = new Set(markdownLinks(section).map((link) => link.target.split('#')[0]));
    const guides = readdirSync(join(ROOT, 'docs', 'guides')).filter((name) => name.endsWith('.md'));
    expect(guides.filter((name) => !listed.has(`docs/guides/${name}`))).toEqual([]);
  });
});

describe("the runs guide's table of run's flags", () => {
  it('names every flag attractor run takes', () => {
    const guide = read(join(ROOT, 'docs', 'guides', 'runs.md'));
    const table = guide.slice(
      guide.indexOf('| Flag | What it does |'),
      guide.indexOf('### attractor resume'),
    );
    const named = new Set(table.match(/--[a-z][a-z0-9-]*/g));
    expect(
      [...(flagsOf('run') ?? [])].filter(
        (flag) => flag !== '--help' && flag !== '--version' && !named.has(flag),
      ),
    ).toEqual([]);
  });
});

describe('the embedding guide', () => {
  it('installs the xstate version Attractor depends on, so both use one copy', () => {
    const version: unknown = JSON.parse(read(join(ROOT, 'package.json'))).dependencies?.xstate;
    expect(read(join(ROOT, 'docs/guides/embedding.md'))).toContain(`npm install xstate@${String(version)}`);
  });
});
