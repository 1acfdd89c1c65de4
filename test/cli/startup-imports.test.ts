import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcCli = fileURLToPath(new URL('../../src/cli/', import.meta.url));
const HEAVY =
  /^(xstate|zod|ts-graphviz|@ts-graphviz\/|@hpcc-js\/|ink|react|openai|@anthropic-ai\/|@google\/genai)/;
/** Static (not type-only, not dynamic) imports and re-exports of a TypeScript file. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

/** Every module `main.ts` loads before any command runs: its static import closure. */
function staticClosure(entry: string): { files: string[]; packages: string[] } {
  const files: string[] = [];
  const packages = new Set<string>();
  const queue = [entry];
  const seen = new Set(queue);
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    files.push(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(STATIC_IMPORT)) {
      const spec = match[1] as string;
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return { files, packages: [...packages].sort() };
}

describe('start-up stays lean', () => {
  const { files, packages } = staticClosure(path.join(srcCli, 'main.ts'));

  it('main.ts statically loads only commander and node built-ins', () => {
    const heavy = packages.filter((p) => HEAVY.test(p));
    expect(heavy).toEqual([]);
    expect(packages.filter((p) => !p.startsWith('node:'))).toEqual(['commander']);
  });

  it('main.ts does not statically reach the compiler (it is imported inside the command actions)', () => {
    const reached = files.map((f) => path.relative(srcCli, f));
    expect(reached.filter((f) => f.includes('compiler'))).toEqual([]);
    expect(reached).toContain('commands/validate.ts');
  });
});

describe('a run that calls no model loads no model client', () => {
  // `run` and `resume` import these inside their actions; a dry or scenario run must not pay for the
  // LLM client, the provider adapters, the JSON-schema validator and the coding agent.
  it.each(['run-run.ts', 'run-resume.ts', 'run-fork.ts'])(
    '%s does not statically reach src/llm or src/agent',
    (entry) => {
      const { files, packages } = staticClosure(path.join(srcCli, entry));
      const src = path.resolve(srcCli, '..');
      const reached = files.map((f) => path.relative(src, f));
      expect(reached).toContain('run/run-services.ts');
      expect(reached.filter((f) => f.startsWith('llm/') || f.startsWith('agent/'))).toEqual([]);
      expect(
        packages.filter((p) => p === 'ajv' || /^(openai|@anthropic-ai\/|@google\/genai)/.test(p)),
      ).toEqual([]);
    },
  );
});
