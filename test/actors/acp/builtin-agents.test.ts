import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/actors/acp/builtin-agents.js';

/** The guide that lists the built-in agents (docs/guides/external-agents.md). */
const GUIDE = readFileSync(new URL('../../../docs/guides/external-agents.md', import.meta.url), 'utf8');

describe('built-in agents', () => {
  it('the external agents guide documents exactly the default commands and install lines the code uses', () => {
    const rows = [...GUIDE.matchAll(/^\| `(\w+)` \([^)]*\) \| `([^`]+)` \| `([^`]+)` \|$/gm)].map((m) => ({
      name: m[1],
      command: m[2],
      install: m[3],
    }));
    expect(rows).toEqual(BUILTIN_AGENTS.map(({ name, command, install }) => ({ name, command, install })));
  });
});
