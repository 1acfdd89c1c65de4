import { describe, expect, test } from 'vitest';
import { diffLines } from '../../src/tui/diff-lines.js';
import { highlightCode } from '../../src/tui/highlight-code.js';
import { renderMarkdown } from '../../src/tui/render-markdown.js';
import { tailLines } from '../../src/tui/tail-lines.js';

const flat = (lines: ReturnType<typeof renderMarkdown>) =>
  lines.map((l) => l.map((s) => `${s.style}:${s.text}`).join('|'));

describe('renderMarkdown', () => {
  test.each([
    ['# Title', 'heading:Title'],
    ['## A `code` heading', 'heading:A code heading'],
    ['- item **bold**', 'bullet:• |plain:item |bold:bold'],
    ['2. second', 'bullet:2. |plain:second'],
    ['use `npm test` now', 'plain:use |code:npm test|plain: now'],
    ['an *emphasis* and _another_', 'plain:an |italic:emphasis|plain: and |italic:another'],
    ['> quoted **loud**', 'quote:▎ |quote:quoted |bold:loud'],
    ['see [the docs](https://x.dev/a)', 'plain:see |link:the docs|comment: (https://x.dev/a)'],
    ['at <https://x.dev>', 'plain:at |link:https://x.dev'],
    ['not \\*emphasis\\*', 'plain:not *emphasis*'],
    ['**unclosed while streaming', 'plain:**unclosed while streaming'],
    ['| a | b |', 'plain:| a | b |'],
  ])('%s', (line, expected) => {
    expect(flat(renderMarkdown([line]))).toEqual([expected]);
  });

  test('one line out for each line in: lists nest, blank lines stay, a setext underline stays', () => {
    expect(
      flat(renderMarkdown(['Intro', '- a', '  - nested', '- b', '', 'Title', '=====', '', '---'])),
    ).toEqual([
      'plain:Intro',
      'bullet:• |plain:a',
      'plain:  |bullet:• |plain:nested',
      'bullet:• |plain:b',
      'plain:',
      'heading:Title',
      'heading:=====',
      'plain:',
      'fence:---',
    ]);
  });

  test('fenced code is framed and highlighted by its language', () => {
    expect(flat(renderMarkdown(['```ts', 'const n = 42; // answer', '```']))).toEqual([
      'fence:┌ ts',
      'fence:│ |keyword:const|plain: n = |number:42|plain:; |comment:// answer',
      'fence:└',
    ]);
  });

  test('a block is highlighted as a whole: a string spanning lines is a string on each', () => {
    expect(flat(renderMarkdown(['```python', 's = """one', 'two"""', '```']))).toEqual([
      'fence:┌ python',
      'fence:│ |plain:s = |string:"""one',
      'fence:│ |string:two"""',
      'fence:└',
    ]);
  });

  test('a fence still streaming has no closing line; one without a known language is plain', () => {
    expect(flat(renderMarkdown(['```', 'const x = 1']))).toEqual([
      'fence:┌ code',
      'fence:│ |plain:const x = 1',
    ]);
    expect(flat(renderMarkdown(['```nosuchlang', 'x']))).toEqual(['fence:┌ nosuchlang', 'fence:│ |plain:x']);
  });

  test('a tail that starts inside a fence is rendered as code of that fence', () => {
    expect(flat(renderMarkdown(['return "x"', '```', 'after *it*'], 'ts'))).toEqual([
      'fence:│ |keyword:return|plain: |string:"x"',
      'fence:└',
      'plain:after |italic:it',
    ]);
    expect(flat(renderMarkdown(['return "x"'], ''))).toEqual(['fence:│ |plain:return "x"']);
  });
});

test.each([
  ['py', '# note', [['comment:# note']]],
  ['ts', 'x # y', [['plain:x # y']]],
  ['sh', "echo 'hi'", [["keyword:echo|plain: |string:'hi'"]]],
  ['diff', '-old\n+new', [['removed:-old'], ['added:+new']]],
  // highlight.js escapes its output as HTML; the text comes back as it was written.
  ['html', '<a href="x">&amp;</a>', [['plain:<a href=|string:"x"|plain:>|string:&amp;|plain:</a>']]],
  ['', 'if (x) {}', [['plain:if (x) {}']]],
])('highlightCode %s %s', (language, code, expected) => {
  expect(
    highlightCode(code, language).map((line) => [line.map((t) => `${t.token}:${t.text}`).join('|')]),
  ).toEqual(expected);
});

describe('tailLines', () => {
  const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
  test('returns only the last rows, and says lines were hidden', () => {
    expect(tailLines(text, 3, 80)).toEqual({
      lines: ['line 997', 'line 998', 'line 999'],
      fence: undefined,
      hidden: true,
    });
  });
  test('counts wrapped rows: a 200-character line fills 3 rows at 80 columns', () => {
    expect(tailLines(`a\nb\n${'x'.repeat(200)}`, 4, 80).lines).toEqual(['b', 'x'.repeat(200)]);
  });
  test('a short text is shown whole', () => {
    expect(tailLines('one\ntwo', 10, 80)).toEqual({ lines: ['one', 'two'], fence: undefined, hidden: false });
  });
  test.each([
    ['one\ntwo\n\n\n', 10, { lines: ['one', 'two'], hidden: false }],
    ['one\ntwo\n', 1, { lines: ['two'], hidden: true }],
    ['\n\n', 3, { lines: [''], hidden: false }],
    ['', 3, { lines: [''], hidden: false }],
    ['\n\nthree\n', 5, { lines: ['', '', 'three'], hidden: false }],
  ])('newlines at the end make no lines: %j in %i rows', (input, rows, expected) => {
    expect(tailLines(input, rows, 80)).toEqual({ ...expected, fence: undefined });
  });
  test('knows when the tail starts inside a code fence, and its language', () => {
    expect(tailLines('intro\n```js\na\nb\nc', 2, 80).fence).toBe('js');
    expect(tailLines('intro\n```\na\nb\nc', 2, 80).fence).toBe('');
    expect(tailLines('```js\na\n```\nb\nc', 2, 80).fence).toBeUndefined();
    expect(tailLines('```js\na\n```\n```py\nb\nc', 1, 80).fence).toBe('py');
  });
});

test.each([
  ['edit_file', { path: 'a.ts', old_string: 'old', new_string: 'new\nmore' }, ['-old', '+new', '+more']],
  ['apply_patch', { patch: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n c' }, ['@@@ -1 +1 @@', '-a', '+b', ' c']],
  ['write_file', { path: 'n.ts', content: 'x\ny' }, ['+x', '+y']],
  ['shell', { command: 'ls' }, undefined],
])('diffLines %s', (name, args, expected) => {
  expect(diffLines(name, args)?.map((l) => `${l.sign}${l.text}`)).toEqual(expected);
});

test('tailLines cuts a single line longer than the pane to its end', () => {
  const line = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
  const tail = tailLines(line, 2, 40);
  expect(tail.hidden).toBe(true);
  expect(tail.lines).toHaveLength(1);
  expect(tail.lines[0]).toHaveLength(80);
  expect(line.endsWith(tail.lines[0] as string)).toBe(true);
});
