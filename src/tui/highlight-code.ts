import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import makefile from 'highlight.js/lib/languages/makefile';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/** Token classes the code highlighter produces; the theme gives each a colour. */
export type CodeToken = 'keyword' | 'string' | 'comment' | 'number' | 'added' | 'removed' | 'plain';

export interface CodeSegment {
  text: string;
  token: CodeToken;
}

/** The languages agents write most; each brings its own aliases (ts, py, sh, yml, html, toml…). */
const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  makefile,
  python,
  ruby,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};

let registered = false;

/** Registering runs every grammar's definition: done on the first fence shown, not at start-up. */
function languageOf(name: string): string | undefined {
  if (!registered) {
    for (const [id, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(id, grammar);
    registered = true;
  }
  return name !== '' && hljs.getLanguage(name) ? name : undefined;
}

/**
 * highlight.js's scopes, as the few colours the theme has; a scope not listed takes its parent's
 * (a function's title inside a class stays plain, an escape inside a string stays a string).
 */
const SCOPE_TOKENS: Readonly<Record<string, CodeToken>> = {
  keyword: 'keyword',
  built_in: 'keyword',
  literal: 'keyword',
  type: 'keyword',
  string: 'string',
  regexp: 'string',
  symbol: 'string',
  number: 'number',
  comment: 'comment',
  doctag: 'comment',
  meta: 'comment',
  addition: 'added',
  deletion: 'removed',
  subst: 'plain',
};

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
};

/** highlight.js's output: `<span class="hljs-…">`, `</span>` and escaped text, nothing else. */
const HTML = /<span class="([^"]*)">|<\/span>|([^<]+)/g;

function linesOf(html: string): CodeSegment[][] {
  const lines: CodeSegment[][] = [[]];
  const scopes: CodeToken[] = [];
  for (const [, className, escaped] of html.matchAll(HTML)) {
    if (className !== undefined) {
      const scope = /^hljs-([\w.]+)/.exec(className)?.[1]?.split('.')[0] ?? '';
      scopes.push(SCOPE_TOKENS[scope] ?? scopes.at(-1) ?? 'plain');
    } else if (escaped === undefined) {
      scopes.pop();
    } else {
      const token = scopes.at(-1) ?? 'plain';
      const text = escaped.replace(/&(?:amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity] ?? entity);
      text.split('\n').forEach((part, i) => {
        if (i > 0) lines.push([]);
        const line = lines.at(-1) as CodeSegment[];
        const last = line.at(-1);
        // Neighbouring text of one colour is one segment: fewer <Text> elements per line.
        if (part === '') return;
        if (last?.token === token) last.text += part;
        else line.push({ text: part, token });
      });
    }
  }
  return lines;
}

/**
 * The lines of a code block, highlighted with highlight.js when the fence names a language it knows
 * (one call for the whole block, so a comment or string spanning lines is coloured throughout); other
 * code is shown plain. Always as many lines as `code` has.
 */
export function highlightCode(code: string, language = ''): CodeSegment[][] {
  const known = languageOf(language.toLowerCase());
  const lines = known
    ? linesOf(hljs.highlight(code, { language: known, ignoreIllegals: true }).value)
    : code.split('\n').map((line): CodeSegment[] => (line === '' ? [] : [{ text: line, token: 'plain' }]));
  return lines;
}
