import { type CodeBlock, inlineCode } from './markdown-text.js';

/**
 * The `attractor …` command lines a document shows: the shell lines of its code blocks whose command is
 * `attractor` (after `$`, `npx` and `NAME=value` prefixes; each command of a `&&`, `|` or `;` chain), and
 * its inline code spans that are one. A span with `[` or `|` is a synopsis (`attractor runs [ROOT]
 * [--json]`): it is kept apart, its flags checked, not parsed. Placeholders (`<run id>`) stand for a value.
 */
export interface CommandLine {
  /** The arguments after `attractor`. */
  argv: string[];
  /** As written in the document. */
  source: string;
  line: number;
}

const SHELL_LANGS = new Set(['', 'sh', 'bash', 'shell', 'console']);
const OPERATORS = new Set(['&&', '||', '|', ';', '&']);

/** A `<placeholder>` becomes a value that any flag takes (`1`), so `--max-cost <more>` parses. */
const fillPlaceholders = (text: string) => text.replace(/<[A-Za-z][^<>\n]*>/g, '1');

/** Shell words and operators of one line; quotes and backslashes as the shell reads them, `#…` dropped. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const push = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      const stop = end === -1 ? line.length : end;
      word = (word ?? '') + line.slice(i + 1, stop).replace(c === '"' ? /\\(["\\$`])/g : /$^/, '$1');
      i = stop;
    } else if (c === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i++;
    } else if (/\s/.test(c)) push();
    else if (c === '#' && word === undefined) break;
    else if ('&|;<>'.includes(c)) {
      push();
      const two = line.slice(i, i + 2);
      const op = two === '&&' || two === '||' || two === '>>' ? two : c;
      words.push(op);
      i += op.length - 1;
    } else word = (word ?? '') + c;
  }
  push();
  return words;
}

/** The commands of a list of shell words, split at operators, with redirections left out. */
function commands(words: string[]): string[][] {
  const found: string[][] = [[]];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (OPERATORS.has(word)) found.push([]);
    else if (word === '>' || word === '>>' || word === '<') {
      i++; // the file it redirects to or from
      const current = found.at(-1);
      if (current && /^\d$/.test(current.at(-1) ?? '')) current.pop(); // `2>`
    } else found.at(-1)?.push(word);
  }
  return found.filter((command) => command.length > 0);
}

/** The arguments after `attractor`, when this command is `attractor` (behind `$`, env and `npx`). */
function attractorArgv(command: string[]): string[] | undefined {
  let i = 0;
  if (command[i] === '$') i++;
  while (/^[A-Za-z_][A-Za-z0-9_]*=/.test(command[i] ?? '')) i++;
  if (command[i] === 'npx') i++;
  return command[i] === 'attractor' ? command.slice(i + 1) : undefined;
}

/** The command lines of a document's shell code blocks. */
export function blockCommandLines(blocks: readonly CodeBlock[]): CommandLine[] {
  const found: CommandLine[] = [];
  for (const block of blocks) {
    if (!SHELL_LANGS.has(block.lang)) continue;
    const lines = block.text.replace(/\\\n/g, ' ').split('\n');
    for (const [index, text] of lines.entries()) {
      for (const command of commands(shellWords(fillPlaceholders(text)))) {
        const argv = attractorArgv(command);
        if (argv) found.push({ argv, source: text.trim(), line: block.line + 1 + index });
      }
    }
  }
  return found;
}

/** The inline `attractor …` spans of a document's prose: command lines, and synopses apart. */
export function inlineCommandLines(prose: string): { commands: CommandLine[]; synopses: CommandLine[] } {
  const commands: CommandLine[] = [];
  const synopses: CommandLine[] = [];
  const lines = prose.split('\n');
  for (const [index, text] of lines.entries()) {
    // Spans do not cross lines in our documents; a table row is one line.
    for (const span of inlineCode(text)) {
      if (!/^(npx )?attractor /.test(span)) continue;
      const argv = attractorArgv(
        shellWords(fillPlaceholders(span.replace(/\\\|/g, '|'))).filter((w) => w !== '|'),
      );
      if (!argv) continue;
      const entry = { argv, source: span, line: index + 1 };
      if (/[[|]/.test(span)) synopses.push(entry);
      else commands.push(entry);
    }
  }
  return { commands, synopses };
}
