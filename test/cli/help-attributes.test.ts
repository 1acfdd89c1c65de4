import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_TABLE } from '../../src/compiler/attributes/attribute-table.js';
import { runCli } from './run-cli.js';

describe('attractor help', () => {
  it('help attributes prints every attribute of the table, with its type and what it does', async () => {
    const result = await runCli(['help', 'attributes']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const entry of ATTRIBUTE_TABLE) expect(result.stdout, entry.name).toContain(entry.name);
    expect(result.stdout).toMatch(/^ {2}human\.timeout {2}duration {2}\[wait\.human\]$/m);
    expect(result.stdout).toContain('Aliases: model = llm_model');
    expect(result.stdout).toContain('Graphviz drawing attributes, kept and ignored when run: ');
    expect(Math.max(...result.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(110);
  });

  it.each([
    [['help', 'validate'], 0, /Usage: attractor validate/],
    [['help'], 0, /help \[topic\]/],
    [['help', 'lsp'], 0, /language server/],
  ])('%j still shows the help of commands', async (argv, code, expected) => {
    const result = await runCli(argv);
    expect(result.code).toBe(code);
    expect(result.stdout).toMatch(expected);
  });

  it('an unknown topic is a usage error naming what help knows', async () => {
    const result = await runCli(['help', 'atributes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no help for 'atributes'`);
  });
});
