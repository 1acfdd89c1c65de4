import { ConditionSyntaxError } from './condition-syntax-error.js';

export type ConditionPunctuation =
  | '='
  | '!='
  | '<'
  | '>'
  | '<='
  | '>='
  | '&&'
  | '||'
  | '!'
  | '('
  | ')'
  | '['
  | ']'
  | ',';

export type ConditionToken =
  | { type: 'word'; text: string; column: number }
  | { type: 'string'; text: string; column: number }
  | { type: 'punct'; text: ConditionPunctuation; column: number }
  | { type: 'eof'; text: ''; column: number };

/** Characters of a bare key or value: letters, digits and `_ - . / :` (so `claude-opus-4-6`, `a/b:c` work). */
const WORD_CHAR = /[A-Za-z0-9_\-./:]/;

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/**
 * Splits a condition into tokens. Operators people bring from other languages (`==`, a lone `&` or `|`,
 * `<>`) fail here with a hint, because the tokenizer is the only place that sees them as written.
 */
export function tokenizeCondition(text: string): ConditionToken[] {
  const tokens: ConditionToken[] = [];
  const fail = (message: string, index: number, hint?: string): never => {
    throw new ConditionSyntaxError(message, {
      condition: text,
      column: index + 1,
      ...(hint ? { hint } : {}),
    });
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const column = i + 1;
    if (ch === '"' || ch === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) fail('unterminated quoted string', i, `close it with ${ch}`);
        const c = text[j] as string;
        if (c === ch) break;
        if (c === '\\' && j + 1 < text.length) {
          const escaped = text[j + 1] as string;
          value += ESCAPES[escaped] ?? escaped;
          j += 2;
          continue;
        }
        value += c;
        j++;
      }
      tokens.push({ type: 'string', text: value, column });
      i = j + 1;
      continue;
    }
    if (WORD_CHAR.test(ch)) {
      let j = i;
      while (j < text.length && WORD_CHAR.test(text[j] as string)) j++;
      tokens.push({ type: 'word', text: text.slice(i, j), column });
      i = j;
      continue;
    }
    const two = ch + (next ?? '');
    if (two === '==') fail('`==` is not an operator', i, 'use `=` for equality');
    if (two === '<>') fail('`<>` is not an operator', i, 'use `!=` for inequality');
    if (two === '!=' || two === '<=' || two === '>=' || two === '&&' || two === '||') {
      tokens.push({ type: 'punct', text: two, column });
      i += 2;
      continue;
    }
    if (ch === '&') fail('a single `&` is not an operator', i, 'use `&&` for AND');
    if (ch === '|') fail('a single `|` is not an operator', i, 'use `||` for OR');
    if ('=<>!()[],'.includes(ch)) {
      tokens.push({ type: 'punct', text: ch as ConditionPunctuation, column });
      i++;
      continue;
    }
    fail(
      `unexpected character \`${ch}\``,
      i,
      'quote values that contain characters other than letters, digits and _ - . / :',
    );
  }
  tokens.push({ type: 'eof', text: '', column: text.length + 1 });
  return tokens;
}
