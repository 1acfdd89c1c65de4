import type { AttributeOwner } from '../compiler/attributes/attribute-aliases.js';
import { ATTRIBUTE_ALIASES } from '../compiler/attributes/attribute-aliases.js';
import type { AttributeEntry, ValueKind } from '../compiler/attributes/attribute-entry.js';
import { ATTRIBUTE_TABLE } from '../compiler/attributes/attribute-table.js';

const VALUE_WORDS: Readonly<Record<ValueKind, string>> = {
  text: 'text',
  integer: 'integer',
  count: 'integer >= 1',
  number: 'number',
  boolean: 'boolean',
  duration: 'duration',
  onOff: 'on|off',
};

const TITLES: Readonly<Record<AttributeOwner, string>> = {
  graph: 'Graph attributes (digraph p { name=value })',
  node: 'Node attributes (id [name=value]; in brackets: the handler types they apply to)',
  edge: 'Edge attributes (a -> b [name=value])',
};

const WIDTH = 100;

/** What `attractor help attributes` prints: every attribute the code reads, by graph, node and edge. */
export function formatAttributeTable(): string {
  const sections = (['graph', 'node', 'edge'] as const).map((on) => formatSection(on));
  return `${sections.join('\n')}\nValues: a duration is 900s, 15m, 250ms or 2h (a bare number is seconds); booleans take true/false,\nyes/no, 1/0. Unknown attributes are kept for custom handlers and interviewers; \`attractor validate\`\nwarns (attribute_unknown) when one is a near misspelling of a name above.\n`;
}

function formatSection(on: AttributeOwner): string {
  const rows = ATTRIBUTE_TABLE.filter((entry) => entry.on === on);
  const lines = [TITLES[on]];
  for (const entry of rows.filter((row) => row.read !== 'drawing')) lines.push(...formatRow(entry));
  const aliases = Object.entries(ATTRIBUTE_ALIASES[on]).map(([alias, name]) => `${alias} = ${name}`);
  if (aliases.length > 0) lines.push(...wrap(`Aliases: ${aliases.join(', ')}.`, '  '));
  const drawing = rows.filter((row) => row.read === 'drawing').map((row) => row.name);
  lines.push(...wrap(`Graphviz drawing attributes, kept and ignored when run: ${drawing.join(', ')}.`, '  '));
  return `${lines.join('\n')}\n`;
}

function formatRow(entry: AttributeEntry): string[] {
  const value = entry.values ? entry.values.join('|') : VALUE_WORDS[entry.value];
  const handlers = entry.handlers.length > 0 ? `  [${entry.handlers.join(', ')}]` : '';
  return [`  ${entry.name}  ${value}${handlers}`, ...wrap(entry.doc, '      ')];
}

/** Words of `text` in lines of at most WIDTH characters, each starting with `indent`. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > WIDTH && line.trim() !== '') {
      lines.push(line);
      line = indent;
    }
    line += line === indent ? word : ` ${word}`;
  }
  if (line.trim() !== '') lines.push(line);
  return lines;
}
