/**
 * A deterministic stand-in for a provider's tokenizer, for the prompt-cache stand-ins. It is neither
 * Claude's nor OpenAI's tokenizer (neither ships one we could run offline); it splits text the way BPE
 * vocabularies roughly do, so counts land near the real ones for code and prose (about four characters a
 * token on English, more tokens on JSON punctuation):
 * - a run of up to six letters, with the space before it, is one token (" world", "slugif", "y");
 * - up to three digits, with a space before them, is one token;
 * - one or two punctuation characters, with a space before them, are one token;
 * - any other run of whitespace (newlines, indentation) is one token.
 * What matters for the cache accounting is only that the same text always gives the same tokens.
 */
const TOKEN = /\s?[A-Za-z]{1,6}|\s?\d{1,3}|\s?[^\sA-Za-z\d]{1,2}|\s+/g;

export function countTokens(text: string): number {
  let count = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text) !== null) count += 1;
  return count;
}

/** The character offset after each token (so a prefix of N tokens is `text.slice(0, ends[N - 1])`). */
export function tokenEnds(text: string): number[] {
  const ends: number[] = [];
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    ends.push(match.index + match[0].length);
  }
  return ends;
}
