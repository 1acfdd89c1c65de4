/**
 * What the documentation tests read in a Markdown file: its fenced code blocks, its prose without them, the
 * anchors its headings get on GitHub, and its links. Just enough Markdown for our own documents.
 */

export interface CodeBlock {
  /** The info string's first word (`sh`, `ts`, …), empty when there is none. */
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface MarkdownLink {
  target: string;
  line: number;
}

const FENCE = /^\s*(```+|~~~+)\s*([\w-]*)/;

/** The fenced code blocks, and the prose with each fenced line blanked (so line numbers still hold). */
export function splitMarkdown(text: string): { prose: string; blocks: CodeBlock[] } {
  const blocks: CodeBlock[] = [];
  const prose: string[] = [];
  let open: { fence: string; block: CodeBlock; lines: string[] } | undefined;
  for (const [index, line] of text.split('\n').entries()) {
    const fence = FENCE.exec(line);
    if (open) {
      if (fence?.[1]?.startsWith(open.fence) && line.trim() === fence[1]) {
        blocks.push({ ...open.block, text: open.lines.join('\n') });
        open = undefined;
      } else open.lines.push(line);
      prose.push('');
    } else if (fence) {
      open = {
        fence: fence[1] ?? '```',
        block: { lang: fence[2] ?? '', text: '', line: index + 1 },
        lines: [],
      };
      prose.push('');
    } else prose.push(line);
  }
  return { prose: prose.join('\n'), blocks };
}

/** Inline code spans of prose, in order. */
export function inlineCode(prose: string): string[] {
  return [...prose.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)].map((m) => (m[2] ?? '').trim());
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a document has: its headings' (repeats numbered as GitHub numbers them) and `<a id>`s. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of splitMarkdown(text).prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = headingSlug(m[1] ?? '');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] ?? '');
  return anchors;
}

/** The inline links and images of the prose (code spans and blocks are not links). */
export function markdownLinks(text: string): MarkdownLink[] {
  const { prose } = splitMarkdown(text);
  const withoutCode = prose.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (span) =>
    span.replace(/[^\n]/g, ' '),
  );
  const links: MarkdownLink[] = [];
  for (const m of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ target: m[1] ?? '', line: withoutCode.slice(0, m.index).split('\n').length });
  }
  return links;
}
