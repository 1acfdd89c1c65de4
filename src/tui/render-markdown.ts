import { type CodeToken, highlightCode } from './highlight-code.js';

export type MarkdownStyle = CodeToken | 'bold' | 'italic' | 'code' | 'heading' | 'bullet' | 'quote' | 'fence';

export interface MarkdownSegment {
  text: string;
  style: MarkdownStyle;
}

const INLINE = /(\*\*[^*]+\*\*|__[^_]+__)|(`[^`]+`)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;

function inline(line: string, base: MarkdownStyle = 'plain'): MarkdownSegment[] {
  const out: MarkdownSegment[] = [];
  let last = 0;
  for (const match of line.matchAll(INLINE)) {
    const [whole, bold, code] = match;
    if (match.index > last) out.push({ text: line.slice(last, match.index), style: base });
    if (bold) out.push({ text: whole.slice(2, -2), style: 'bold' });
    else if (code) out.push({ text: whole.slice(1, -1), style: 'code' });
    else out.push({ text: whole.slice(1, -1), style: 'italic' });
    last = match.index + whole.length;
  }
  if (last < line.length) out.push({ text: line.slice(last), style: base });
  return out;
}

/**
 * Terminal markdown for assistant text, line by line: headings, bullets, quotes, **bold**, *italic*,
 * `code`, and fenced code blocks highlighted per line. `inFence` says the first line is already inside
 * a fence (the caller rendered only a tail of a longer text).
 */
export function renderMarkdown(lines: readonly string[], inFence = false): MarkdownSegment[][] {
  const out: MarkdownSegment[][] = [];
  let fence = inFence;
  let language = '';
  for (const line of lines) {
    const opener = /^\s*```\s*([\w+-]*)/.exec(line);
    if (opener) {
      fence = !fence;
      language = fence ? (opener[1] ?? '') : '';
      out.push([{ text: fence ? `┌ ${language || 'code'}` : '└', style: 'fence' }]);
      continue;
    }
    if (fence) {
      out.push([
        { text: '│ ', style: 'fence' },
        ...highlightCode(line, language).map(({ text, token }) => ({ text, style: token })),
      ]);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      out.push([{ text: heading[2] ?? '', style: 'heading' }]);
      continue;
    }
    const bullet = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (bullet) {
      const mark = /\d/.test(bullet[2] ?? '') ? `${bullet[2]} ` : '• ';
      out.push([{ text: `${bullet[1] ?? ''}${mark}`, style: 'bullet' }, ...inline(bullet[3] ?? '')]);
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      out.push([{ text: '▎ ', style: 'quote' }, ...inline(quote[1] ?? '', 'quote')]);
      continue;
    }
    out.push(line === '' ? [{ text: '', style: 'plain' }] : inline(line));
  }
  return out;
}
