import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../src/agent.ts', import.meta.url));

// `attractor/agent` is curated like the root: adding or removing a name is a decision made by editing this list.
const VALUES = [
  'AgentEventKind',
  'BUILTIN_TOOLS',
  'DEFAULT_AGENT_MAX_TOKENS',
  'FileNotFoundError',
  'LocalExecutionEnvironment',
  'PROFILE_PROVIDERS',
  'PathOutsideWorkdirError',
  'SessionConfigSchema',
  'ToolRegistry',
  'UsageLedger',
  'anthropicProfile',
  'configuredProviders',
  'createAgentBackend',
  'createDefaultTools',
  'createProfile',
  'createSession',
  'defineTool',
  'geminiProfile',
  'getProfile',
  'openaiCompatibleProfile',
  'openaiProfile',
];

describe('the attractor/agent export surface', () => {
  it('names every export explicitly (no `export *`)', () => {
    const file = ts.createSourceFile(ENTRY, readFileSync(ENTRY, 'utf8'), ts.ScriptTarget.ES2022);
    for (const statement of file.statements) {
      if (!ts.isExportDeclaration(statement)) continue;
      expect(statement.exportClause && ts.isNamedExports(statement.exportClause)).toBe(true);
    }
  });

  it('exports exactly the curated values at run time', async () => {
    const api = (await import('../src/agent.js')) as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...VALUES].sort());
  });
});
