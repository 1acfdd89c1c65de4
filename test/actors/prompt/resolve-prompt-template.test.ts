import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePromptTemplate } from '../../../src/actors/prompt/resolve-prompt-template.js';
import type { NodeAttrs } from '../../../src/compiler/ir.js';
import { makeNode } from '../helpers/graph-builders.js';

describe('resolvePromptTemplate', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'attractor-prompt-'));
    mkdirSync(join(dir, 'prompts'));
    writeFileSync(join(dir, 'prompts', 'a.md'), 'from file');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each<[NodeAttrs, string]>([
    [{ prompt: 'p', label: 'l' }, 'p'],
    [{ prompt: '', label: 'l' }, 'l'],
    [{}, 'node'],
    [{ prompt: '@prompts/a.md' }, 'from file'],
    [{ prompt: '  @prompts/a.md  ' }, 'from file'],
    [{ prompt: '@ mention with spaces' }, '@ mention with spaces'],
  ])('%j → %j', (attrs, text) => {
    expect(resolvePromptTemplate(makeNode('node', attrs), { file: join(dir, 'main.dot') })).toEqual({
      ok: true,
      text,
    });
  });

  it('names the missing file, resolved against the DOT file', () => {
    const template = resolvePromptTemplate(makeNode('n', { prompt: '@prompts/none.md' }), {
      file: join(dir, 'main.dot'),
    });
    expect(template.ok).toBe(false);
    expect(!template.ok && template.reason).toContain(`${join(dir, 'prompts', 'none.md')} cannot be used`);
  });

  // Read at run time (a label used as the prompt, a graph built in code): the same bounds as compiling.
  it.each([
    ['a label climbing out of the read scope', { label: '@../outside.md' }],
    ['an absolute path', { prompt: '@/etc/hostname' }],
  ])('refuses %s as not allowed (whether or not it exists)', (_what, attrs: NodeAttrs) => {
    const template = resolvePromptTemplate(makeNode('n', attrs), {
      file: join(dir, 'main.dot'),
      readScope: { base: dir, roots: [dir], described: 'the test folder' },
    });
    expect(template).toEqual({ ok: false, reason: expect.stringMatching(/not allowed/) });
  });
});
