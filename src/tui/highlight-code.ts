/** Token classes the code highlighter produces; the theme gives each a colour. */
export type CodeToken = 'keyword' | 'string' | 'comment' | 'number' | 'plain';

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue def default del do elif else enum export ' +
    'extends false fn for from func function go if impl import in interface is let match mod new nil none null ' +
    'package pass private protected pub public raise return self static struct super switch this throw true try ' +
    'type typeof undefined use var void while with yield'
  ).split(' '),
);

const TOKEN =
  /(\/\/.*$|#(?!include).*$|--\s.*$)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\b\d[\d_.]*(?:e[+-]?\d+)?\b)|([A-Za-z_$][\w$]*)/g;

/**
 * A small, language-agnostic highlighter for one line of a fenced code block: comments, strings,
 * numbers and the keywords common to the languages agents write. Line-at-a-time, so it works on the
 * visible tail of a streaming block without re-reading the whole block.
 */
export function highlightCode(line: string, language = ''): Array<{ text: string; token: CodeToken }> {
  const shellLike = /^(sh|bash|zsh|shell|console|py|python|rb|ruby|yaml|yml|toml)$/.test(language);
  const out: Array<{ text: string; token: CodeToken }> = [];
  // Neighbouring plain text is one segment: fewer <Text> elements per line.
  const push = (text: string, token: CodeToken) => {
    const prev = out.at(-1);
    if (prev && prev.token === token && token === 'plain') prev.text += text;
    else out.push({ text, token });
  };
  let last = 0;
  for (const match of line.matchAll(TOKEN)) {
    const [whole, comment, string, number, word] = match;
    const at = match.index;
    if (comment?.startsWith('#') && !shellLike) continue;
    if (at > last) push(line.slice(last, at), 'plain');
    const token: CodeToken =
      comment !== undefined
        ? 'comment'
        : string !== undefined
          ? 'string'
          : number !== undefined
            ? 'number'
            : word !== undefined && KEYWORDS.has(word)
              ? 'keyword'
              : 'plain';
    push(whole, token);
    last = at + whole.length;
  }
  if (last < line.length) push(line.slice(last), 'plain');
  return out;
}
