import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One name an entry point exports: where it is declared and what it is there. */
export interface ApiExport {
  name: string;
  /** `class`, `function`, `const`, `interface`, `type`, `enum`, joined with `+` when a name is two. */
  kind: string;
  /** Exported with `export type`: no value at run time. */
  typeOnly: boolean;
  /** Declaring file, relative to the project root, and the name it has there. */
  origin: string;
}

const VALUE_KINDS = new Set(['class', 'function', 'const', 'let', 'enum']);

export const isRuntimeValue = (e: ApiExport): boolean =>
  !e.typeOnly && e.kind.split('+').some((k) => VALUE_KINDS.has(k));

const parsed = new Map<string, ts.SourceFile>();

function sourceOf(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    parsed.set(file, source);
  }
  return source;
}

/** `./x.js` from `dir` to the `.ts` file it compiles from (`./x.ts` or `./x/index.ts`). */
function resolveModule(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {}
  }
  throw new Error(`cannot resolve ${specifier} from ${from}`);
}

const hasExport = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The kinds under which `file` itself declares `name` with `export`; empty when it does not. */
function localKinds(source: ts.SourceFile, name: string): string[] {
  const kinds: string[] = [];
  for (const statement of source.statements) {
    if (!hasExport(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) kinds.push('function');
    else if (ts.isClassDeclaration(statement) && statement.name?.text === name) kinds.push('class');
    else if (ts.isInterfaceDeclaration(statement) && statement.name.text === name) kinds.push('interface');
    else if (ts.isTypeAliasDeclaration(statement) && statement.name.text === name) kinds.push('type');
    else if (ts.isEnumDeclaration(statement) && statement.name.text === name) kinds.push('enum');
    else if (ts.isVariableStatement(statement)) {
      const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === name) kinds.push(isConst ? 'const' : 'let');
      }
    }
  }
  return [...new Set(kinds)];
}

/** Follows re-exports from `file` until the file that declares `name`. */
function originOf(file: string, name: string, root: string): { kind: string; origin: string } {
  const source = sourceOf(file);
  const kinds = localKinds(source, name);
  if (kinds.length > 0) return { kind: kinds.join('+'), origin: `${path.relative(root, file)}#${name}` };
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    const target = resolveModule(file, (statement.moduleSpecifier as ts.StringLiteral).text);
    const clause = statement.exportClause;
    if (!clause) {
      if (localKindsDeep(target, name, root)) return originOf(target, name, root);
      continue;
    }
    if (!ts.isNamedExports(clause)) continue;
    for (const spec of clause.elements) {
      if (spec.name.text === name) return originOf(target, (spec.propertyName ?? spec.name).text, root);
    }
  }
  throw new Error(`${path.relative(root, file)} does not export ${name}`);
}

function localKindsDeep(file: string, name: string, root: string): boolean {
  try {
    originOf(file, name, root);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every name an entry point file exports, from its syntax: entry points must list names explicitly
 * (an `export *` there is reported as a name `*`, which the curated report never contains).
 */
export function apiSurface(entryFile: string, root: string): ApiExport[] {
  const exports: ApiExport[] = [];
  for (const statement of sourceOf(entryFile).statements) {
    if (!ts.isExportDeclaration(statement)) {
      if (hasExport(statement)) throw new Error(`${entryFile}: an entry point only re-exports`);
      continue;
    }
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause) || !statement.moduleSpecifier) {
      exports.push({ name: '*', kind: 'export *', typeOnly: false, origin: '' });
      continue;
    }
    const target = resolveModule(entryFile, (statement.moduleSpecifier as ts.StringLiteral).text);
    for (const spec of clause.elements) {
      const { kind, origin } = originOf(target, (spec.propertyName ?? spec.name).text, root);
      exports.push({ name: spec.name.text, kind, typeOnly: statement.isTypeOnly || spec.isTypeOnly, origin });
    }
  }
  return exports.sort((a, b) => a.name.localeCompare(b.name));
}
