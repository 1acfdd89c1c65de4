import type { AttributeOwner } from '../compiler/attributes/attribute-aliases.js';
import { definedFields } from '../shared/defined-fields.js';
import type { DotToken } from './dot-tokens.js';

/** Who an attribute list belongs to; `subgraph` for a subgraph's own `name=value`. */
export type ListOwner = AttributeOwner | 'subgraph';

/** One `key` or `key=value` as written. */
export interface AttributeSite {
  owner: ListOwner;
  /** The node whose statement holds it (not for `node [...]` defaults). */
  nodeId?: string;
  key: DotToken;
  value?: DotToken;
}

/** A bracketed attribute list: from `[` to `]` (or the end of the text while it is being typed). */
export interface AttributeList {
  owner: ListOwner;
  nodeId?: string;
  open: number;
  close: number;
  sites: AttributeSite[];
}

/** A node id where it is written: in its own statement (`declares`) or as an edge's end. */
export interface NodeMention {
  id: string;
  token: DotToken;
  declares: boolean;
}

export interface DotOutline {
  lists: AttributeList[];
  /** `name=value` statements: the graph's at the top level, a subgraph's inside one. */
  statements: AttributeSite[];
  mentions: NodeMention[];
}

const KEYWORDS = new Set(['node', 'edge', 'graph', 'subgraph', 'digraph', 'strict']);
const isName = (token: DotToken | undefined): token is DotToken =>
  token !== undefined && (token.kind === 'id' || token.kind === 'string');

/**
 * What the editor needs of a DOT file's structure, from its tokens alone, so it works on text that
 * does not parse yet: attribute lists and whom they belong to, `name=value` statements, node mentions.
 */
export function outlineDot(tokens: readonly DotToken[]): DotOutline {
  const outline: DotOutline = { lists: [], statements: [], mentions: [] };
  let i = 0;
  while (i < tokens.length && tokens[i]?.text !== '{') i++;
  parseBody(tokens, i + 1, true, outline);
  return outline;
}

/** Statements up to the matching `}`; returns the index after it. */
function parseBody(tokens: readonly DotToken[], from: number, root: boolean, outline: DotOutline): number {
  let i = from;
  while (i < tokens.length) {
    const token = tokens[i];
    if (!token) break;
    if (token.text === '}') return i + 1;
    if (token.text === ';' || token.text === ',') i++;
    else if (token.text === '{') i = parseBody(tokens, i + 1, false, outline);
    else if (token.kind === 'id' && KEYWORDS.has(token.value.toLowerCase()))
      i = keywordStatement(tokens, i, outline);
    else if (isName(token) && tokens[i + 1]?.text === '=') {
      outline.statements.push(site(root ? 'graph' : 'subgraph', token, tokens[i + 2]));
      i += isName(tokens[i + 2]) || tokens[i + 2]?.kind === 'html' ? 3 : 2;
    } else if (isName(token)) i = nodeOrEdge(tokens, i, outline);
    else i++;
  }
  return i;
}

function keywordStatement(tokens: readonly DotToken[], i: number, outline: DotOutline): number {
  const word = tokens[i]?.value.toLowerCase();
  if (word === 'subgraph') {
    let j = i + 1;
    if (isName(tokens[j])) j++;
    return tokens[j]?.text === '{' ? parseBody(tokens, j + 1, false, outline) : j;
  }
  const owner: ListOwner = word === 'node' ? 'node' : word === 'edge' ? 'edge' : 'graph';
  return attributeLists(tokens, i + 1, { owner }, outline);
}

/** `a [..]`, or `a -> b -> {c d} [..]`. */
function nodeOrEdge(tokens: readonly DotToken[], from: number, outline: DotOutline): number {
  const ends: DotToken[] = [];
  let i = endpoint(tokens, from, ends);
  let isEdge = false;
  while (tokens[i]?.kind === 'arrow') {
    isEdge = true;
    i = endpoint(tokens, i + 1, ends);
  }
  for (const token of ends) outline.mentions.push({ id: token.value, token, declares: !isEdge });
  const first = ends[0];
  const owner =
    isEdge || !first ? { owner: 'edge' as const } : { owner: 'node' as const, nodeId: first.value };
  return attributeLists(tokens, i, owner, outline);
}

/** One edge end: a node id (with an optional `:port`) or a `{a b}` group; pushes the ids. */
function endpoint(tokens: readonly DotToken[], from: number, ends: DotToken[]): number {
  let i = from;
  const token = tokens[i];
  if (token?.text === '{' || (token?.kind === 'id' && token.value === 'subgraph')) {
    while (i < tokens.length && tokens[i]?.text !== '}') {
      const inner = tokens[i];
      if (isName(inner) && inner.value !== 'subgraph' && tokens[i + 1]?.text !== '=') ends.push(inner);
      i++;
    }
    return i + 1;
  }
  if (!isName(token)) return i;
  ends.push(token);
  i++;
  while (tokens[i]?.text === ':' && isName(tokens[i + 1])) i += 2;
  return i;
}

/** `[..][..]` lists from `from`, for `owner`; returns the index after the last. */
function attributeLists(
  tokens: readonly DotToken[],
  from: number,
  who: { owner: ListOwner; nodeId?: string },
  outline: DotOutline,
): number {
  let i = from;
  while (tokens[i]?.text === '[') {
    const open = tokens[i]?.start ?? 0;
    const sites: AttributeSite[] = [];
    i++;
    while (i < tokens.length && !['[', ']', '{', '}'].includes(tokens[i]?.text ?? '')) {
      const key = tokens[i];
      if (!isName(key)) {
        i++;
        continue;
      }
      const hasValue = tokens[i + 1]?.text === '=';
      const value = hasValue ? tokens[i + 2] : undefined;
      const valueToken = value && value.kind !== 'punct' && value.kind !== 'arrow' ? value : undefined;
      sites.push(site(who.owner, key, valueToken, who.nodeId));
      i += hasValue ? (valueToken ? 3 : 2) : 1;
    }
    const closeToken = tokens[i];
    // Unclosed (being typed): it reaches to whatever comes next.
    const close =
      closeToken?.text === ']' ? closeToken.start : (closeToken?.start ?? Number.MAX_SAFE_INTEGER);
    outline.lists.push({ ...who, open, close, sites });
    if (closeToken?.text === ']') i++;
  }
  return i;
}

function site(owner: ListOwner, key: DotToken, value: DotToken | undefined, nodeId?: string): AttributeSite {
  return {
    owner,
    key,
    ...(value && value.kind !== 'punct' && value.kind !== 'arrow' ? { value } : {}),
    ...definedFields({ nodeId }),
  };
}
