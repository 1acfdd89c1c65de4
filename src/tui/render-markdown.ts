import MarkdownIt, { type Token } from 'markdown-it';
import { type CodeToken, highlightCode } from './highlight-code.js';

export type MarkdownStyle =
  | CodeToken
  | 'bold'
  | 'italic'
  | 'code'
  | 'link'
  | 'heading'
  | 'bullet'
  | 'quote'
  | 'fence';

export interface MarkdownSegment {
  text: string;
  style: MarkdownStyle;
}

/**
 * CommonMark, as an agent's answer is written, without raw HTML (shown as text). Tables are left to
 * be lines of text: a table is read in the terminal as it was typed, and a tail of lines may cut it.
 */
const markdown = new MarkdownIt('commonmark', { html: false });

/** A block that holds others: a quote marks each of its lines, a list item its first with its bullet. */
type Container = { kind: 'quote' } | { kind: 'item'; mark: string; marked: boolean };

function prefix(containers: readonly Container[]): MarkdownSegment[] {
  const out: MarkdownSegment[] = [];
  for (const container of containers) {
    if (container.kind === 'quote') out.push({ text: '▎ ', style: 'quote' });
    else if (container.marked) out.push({ text: ' '.repeat(container.mark.length), style: 'plain' });
    else {
      out.push({ text: container.mark, style: 'bullet' });
      container.marked = true;
    }
  }
  return out;
}

/** Adds text to a line, joining it to the last segment when they share a style. */
function append(line: MarkdownSegment[], text: string, style: MarkdownStyle): void {
  if (text === '') return;
  const last = line.at(-1);
  if (last?.style === style) last.text += text;
  else line.push({ text, style });
}

/** An inline run (a paragraph's or a heading's text) as lines: one per source line it spans. */
function inlineLines(children: readonly Token[], base: MarkdownStyle): MarkdownSegment[][] {
  const lines: MarkdownSegment[][] = [[]];
  let strong = 0;
  let em = 0;
  let href: string | undefined;
  let linkText = '';
  const style = (): MarkdownStyle =>
    base === 'heading' ? base : strong > 0 ? 'bold' : em > 0 ? 'italic' : href !== undefined ? 'link' : base;
  for (const token of children) {
    const line = lines.at(-1) as MarkdownSegment[];
    switch (token.type) {
      case 'softbreak':
      case 'hardbreak':
        lines.push([]);
        break;
      case 'strong_open':
        strong += 1;
        break;
      case 'strong_close':
        strong -= 1;
        break;
      case 'em_open':
        em += 1;
        break;
      case 'em_close':
        em -= 1;
        break;
      case 'link_open':
        href = String(token.attrGet('href') ?? '');
        linkText = '';
        break;
      case 'link_close':
        // The address is worth seeing in a terminal, unless the text already is it (<https://…>).
        if (href && href !== linkText && `mailto:${linkText}` !== href)
          append(line, ` (${href})`, base === 'heading' ? base : 'comment');
        href = undefined;
        break;
      case 'code_inline':
        append(line, token.content, base === 'heading' ? base : 'code');
        break;
      case 'image':
        append(line, token.content, style());
        break;
      default:
        if (href !== undefined) linkText += token.content;
        append(line, token.content, style());
    }
  }
  return lines;
}

/** A fenced block: its opening and closing fences as a frame, the code between highlighted. */
function fenceLines(token: Token, start: number, end: number): MarkdownSegment[][] {
  const language = token.info.trim().split(/\s+/)[0] ?? '';
  const codeLines = token.content === '' ? [] : highlightCode(token.content.replace(/\n$/, ''), language);
  const lines: MarkdownSegment[][] = [[{ text: `┌ ${language || 'code'}`, style: 'fence' }]];
  for (const segments of codeLines) {
    lines.push([
      { text: '│ ', style: 'fence' },
      ...segments.map(({ text, token: t }) => ({ text, style: t })),
    ]);
  }
  // A fence still streaming runs to the end of the text: it has no closing line yet.
  if (codeLines.length < end - start - 1) lines.push([{ text: '└', style: 'fence' }]);
  return lines;
}

/**
 * Terminal markdown for assistant text, line by line, parsed by markdown-it: headings, lists, quotes,
 * **bold**, *italic*, `code`, links, and fenced code highlighted by highlight.js. One line out for each
 * line in, so the caller's count of rows holds. `fence` is the info string of the code fence the
 * lines begin inside ('' for a fence without one), when the caller shows only a tail of a longer text.
 */
export function renderMarkdown(lines: readonly string[], fence?: string): MarkdownSegment[][] {
  // A tail that begins inside a fence is given back its opening line, which is not shown.
  const opened = fence === undefined ? 0 : 1;
  const source = (opened ? [`\`\`\`${fence}`, ...lines] : lines).join('\n');
  const out: MarkdownSegment[][] = lines.map(() => []);
  // The lines of a block starting at source line `at`, each after its containers' marks.
  const place = (at: number, blockLines: MarkdownSegment[][], containers: readonly Container[]) => {
    blockLines.forEach((segments, i) => {
      const index = at + i - opened;
      if (index >= 0 && index < out.length) out[index] = [...prefix(containers), ...segments];
    });
  };
  const containers: Container[] = [];
  let block: Token | undefined;
  for (const token of markdown.parse(source, {})) {
    const [start = 0, end = start + 1] = token.map ?? [];
    switch (token.type) {
      case 'blockquote_open':
        containers.push({ kind: 'quote' });
        break;
      case 'list_item_open':
        containers.push({
          kind: 'item',
          mark: token.info === '' ? '• ' : `${token.info}${token.markup} `,
          marked: false,
        });
        break;
      case 'blockquote_close':
      case 'list_item_close':
        containers.pop();
        break;
      case 'paragraph_open':
      case 'heading_open':
        block = token;
        break;
      case 'inline': {
        const heading = block?.type === 'heading_open';
        const [from = start, to = end] = block?.map ?? [];
        const text = inlineLines(token.children ?? [], heading ? 'heading' : quoted(containers));
        // A setext heading's underline (=== or ---) is its last line.
        if (heading && text.length < to - from)
          text.push([{ text: lineAt(source, to - 1), style: 'heading' }]);
        place(from, text, containers);
        break;
      }
      case 'fence':
        place(start, fenceLines(token, start, end), containers);
        break;
      case 'code_block':
        // Indented code, shown as it was typed.
        place(
          start,
          token.content
            .replace(/\n$/, '')
            .split('\n')
            .map((line): MarkdownSegment[] => [{ text: `    ${line}`, style: 'plain' }]),
          containers,
        );
        break;
      case 'hr':
        place(start, [[{ text: token.markup, style: 'fence' }]], containers);
        break;
    }
  }
  return out.map((line) => (line.length === 0 ? [{ text: '', style: 'plain' }] : line));
}

const quoted = (containers: readonly Container[]): MarkdownStyle =>
  containers.some((c) => c.kind === 'quote') ? 'quote' : 'plain';

const lineAt = (source: string, index: number): string => source.split('\n')[index]?.trim() ?? '';
