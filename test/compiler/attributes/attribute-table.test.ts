import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/actors/acp/builtin-agents.js';
import { MANAGER_ACTIONS } from '../../../src/actors/handlers/manager-actions.js';
import { ErrorPolicySchema, JoinPolicySchema } from '../../../src/actors/parallel/parallel-policy.js';
import {
  ATTRIBUTE_ALIASES,
  type AttributeOwner,
} from '../../../src/compiler/attributes/attribute-aliases.js';
import { VALUE_KINDS } from '../../../src/compiler/attributes/attribute-entry.js';
import {
  ATTRIBUTE_TABLE,
  attributesFor,
  findAttribute,
} from '../../../src/compiler/attributes/attribute-table.js';
import { edgeAttrShape } from '../../../src/compiler/attributes/edge-attrs-schema.js';
import { graphAttrShape } from '../../../src/compiler/attributes/graph-attrs-schema.js';
import { nodeAttrShape } from '../../../src/compiler/attributes/node-attrs-schema.js';
import { BUILTIN_HANDLER_TYPES } from '../../../src/compiler/ir.js';

const SHAPES: Record<AttributeOwner, Record<string, unknown>> = {
  node: nodeAttrShape,
  edge: edgeAttrShape,
  graph: graphAttrShape,
};
const OWNERS = ['graph', 'node', 'edge'] as const;

describe('the attribute table and the compiler schemas say the same', () => {
  it.each(OWNERS)('every %s attribute a schema types has a row, with the same value type', (on) => {
    for (const [name, schema] of Object.entries(SHAPES[on])) {
      const row = ATTRIBUTE_TABLE.find((entry) => entry.on === on && entry.name === name);
      expect(row, `add ${name} to src/compiler/attributes/${on}-attribute-table.ts`).toBeDefined();
      expect(row?.read, name).toBe('schema');
      expect(row && VALUE_KINDS[row.value], `${on} ${name}: the row's value type`).toBe(schema);
    }
  });

  it('every row read by the schema is in the schema, and no row is there twice', () => {
    const seen = new Set<string>();
    for (const entry of ATTRIBUTE_TABLE) {
      const key = `${entry.on} ${entry.name}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      if (entry.read === 'schema') expect(Object.hasOwn(SHAPES[entry.on], entry.name), key).toBe(true);
      else expect(Object.hasOwn(SHAPES[entry.on], entry.name), `${key} is typed: read 'schema'`).toBe(false);
    }
  });

  it('every row has a doc sentence, and names only handler types that exist', () => {
    for (const entry of ATTRIBUTE_TABLE) {
      expect(entry.doc, entry.name).toMatch(/^\S.{10,}[.)]$/);
      for (const handler of entry.handlers) expect(BUILTIN_HANDLER_TYPES, entry.name).toContain(handler);
      if (entry.on !== 'node') expect(entry.handlers, entry.name).toEqual([]);
    }
  });

  it('closed value sets match what the handlers accept', () => {
    const values = (on: AttributeOwner, name: string) => findAttribute(on, name)?.values;
    expect(values('node', 'join_policy')).toEqual(JoinPolicySchema.options);
    expect(values('node', 'error_policy')).toEqual(ErrorPolicySchema.options);
    expect(values('node', 'agent')).toEqual(BUILTIN_AGENTS.map((agent) => agent.name).concat('acp'));
    expect(
      MANAGER_ACTIONS.every((action) => findAttribute('node', 'manager.actions')?.doc.includes(action)),
    ).toBe(true);
  });

  it('aliases find their canonical row; per-handler lists keep what applies to every node', () => {
    for (const on of OWNERS) {
      for (const [alias, canonical] of Object.entries(ATTRIBUTE_ALIASES[on])) {
        expect(findAttribute(on, alias)?.name).toBe(canonical);
      }
    }
    const tool = attributesFor('node', 'tool').map((entry) => entry.name);
    expect(tool).toEqual(expect.arrayContaining(['tool_command', 'timeout', 'sandbox', 'label']));
    expect(tool).not.toContain('join_policy');
    expect(tool).not.toContain('prompt');
  });
});

/** Every `.ts` file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('extra attributes are read only by the names the table lists', () => {
  it('no source indexes an extra-attribute bag but readExtraAttribute (whose key type is the table)', () => {
    const indexing = /\b\w*[eE]xtra\??\.?\[(?!attr\.key\])/;
    const offenders = sourceFiles('src')
      .filter((file) => !file.endsWith('read-extra-attribute.ts'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
          .filter(({ line }) => /(node|graph|edge|Graph)\.?[eE]xtra/.test(line) && indexing.test(line)),
      );
    expect(offenders).toEqual([]);
  });

  it('every extra row is read somewhere by readExtraAttribute', () => {
    const readers = sourceFiles('src')
      .filter((file) => !file.includes('compiler/attributes/'))
      .map((file) => readFileSync(file, 'utf8'))
      .filter((text) => text.includes('readExtraAttribute('));
    for (const entry of ATTRIBUTE_TABLE.filter((row) => row.read === 'extra')) {
      expect(
        readers.some((text) => text.includes(`'${entry.name}'`)),
        entry.name,
      ).toBe(true);
    }
  });
});
