/**
 * Decodes the body of a quoted DOT string (without its quotes): `\"` `\\` `\n` `\t`, and Graphviz's
 * `\l` / `\r` line ends, become the characters they stand for. Other backslash pairs stay as written,
 * since Graphviz gives some of them meaning in labels (`\N` is the node name).
 * ts-graphviz decodes only `\"` (docs/semantics.md), so we decode from the raw text instead.
 */
export function decodeDotString(body: string): string {
  if (!body.includes('\\')) return body;
  let out = '';
  let from = 0;
  for (let i = body.indexOf('\\'); i !== -1 && i + 1 < body.length; i = body.indexOf('\\', from)) {
    const next = body[i + 1]!;
    const decoded = ESCAPES[next];
    out += body.slice(from, i) + (decoded ?? `\\${next}`);
    from = i + 2;
  }
  return out + body.slice(from);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  n: '\n',
  l: '\n',
  r: '\n',
  t: '\t',
};
