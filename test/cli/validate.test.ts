import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { ERROR_PIPELINE, tempPipelines, VALID_PIPELINE, WARNING_PIPELINE } from './temp-pipelines.js';

const tmp = tempPipelines();
afterAll(() => tmp.cleanup());

const valid = tmp.write('valid.dot', VALID_PIPELINE);
const warning = tmp.write('warning.dot', WARNING_PIPELINE);
const broken = tmp.write('broken.dot', ERROR_PIPELINE);

const DIAGNOSTIC_LINE = /^(.+):(\d+):(\d+): (error|warning|info) ([a-z_]+): .+$/;
const DIAGNOSTIC_KEYS = new Set(['rule', 'severity', 'message', 'node_id', 'edge', 'fix', 'edits', 'loc']);

interface JsonReport {
  valid: boolean;
  diagnostics: Array<Record<string, unknown>>;
}

function parseReport(stdout: string): JsonReport {
  const report = JSON.parse(stdout) as JsonReport;
  expect(Object.keys(report).sort()).toEqual(['diagnostics', 'valid']);
  expect(typeof report.valid).toBe('boolean');
  for (const d of report.diagnostics) {
    for (const key of Object.keys(d)) expect(DIAGNOSTIC_KEYS).toContain(key);
    expect(typeof d['rule']).toBe('string');
    expect(['error', 'warning', 'info']).toContain(d['severity']);
    expect(typeof d['message']).toBe('string');
    if (d['edge'] !== undefined)
      expect(Object.keys(d['edge'] as object).sort()).toEqual(['source', 'target']);
  }
  return report;
}

describe('attractor validate', () => {
  it.each([
    ['a clean pipeline', valid, [], 0],
    ['warnings only', warning, [], 0],
    ['warnings only, --strict', warning, ['--strict'], 1],
    ['a clean pipeline, --strict', valid, ['--strict'], 0],
    ['errors', broken, [], 1],
    ['errors, --strict', broken, ['--strict'], 1],
  ])('%s: exit %#', async (_name, file, flags, code) => {
    const text = await runCli(['validate', file, ...flags]);
    expect(text.code).toBe(code);
    const json = await runCli(['validate', file, ...flags, '--json']);
    expect(json.code).toBe(code);
    expect(parseReport(json.stdout).valid).toBe(code === 0);
    expect(json.stderr).toBe('');
  });

  it('prints nothing but a summary for a clean pipeline', async () => {
    const result = await runCli(['validate', valid]);
    expect(result.stdout).toBe(`✓ ${valid}: valid (3 nodes, 2 edges)\n`);
    expect(result.stderr).toBe('');
  });

  it('prints one file:line:col line per diagnostic, then a summary', async () => {
    const result = await runCli(['validate', broken]);
    const lines = result.stdout.trimEnd().split('\n');
    const summary = lines.pop();
    expect(summary).toMatch(new RegExp(`^✗ ${escapeRegExp(broken)}: invalid, \\d+ errors?`));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(DIAGNOSTIC_LINE);
    expect(result.stdout).toMatch(
      new RegExp(`^${escapeRegExp(broken)}:4:\\d+: error reachability: .*orphan`, 'm'),
    );
    expect(result.stdout).toMatch(/error terminal_node: /);
  });

  it('--json lists the same findings with rule, severity, message and node_id', async () => {
    const report = parseReport((await runCli(['validate', broken, '--json'])).stdout);
    const rules = report.diagnostics.map((d) => d['rule']);
    expect(rules).toContain('terminal_node');
    expect(rules).toContain('reachability');
    const orphan = report.diagnostics.find((d) => d['rule'] === 'reachability');
    expect(orphan).toMatchObject({ severity: 'error', node_id: 'orphan' });
  });

  it('--strict explains why a pipeline with only warnings fails', async () => {
    const result = await runCli(['validate', warning, '--strict']);
    expect(result.stdout).toMatch(/warning goal_gate_has_retry: /);
    expect(result.stdout).toMatch(/invalid, 1 warning \(--strict: warnings count as errors\)/);
  });

  it('colours only on a TTY, and NO_COLOR wins over a TTY', async () => {
    const plain = await runCli(['validate', broken]);
    expect(plain.stdout).not.toContain('\u001b[');
    const tty = await runCli(['validate', broken], { isTTY: true });
    expect(tty.stdout).toContain('\u001b[31m');
    const noColor = await runCli(['validate', broken], { isTTY: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).toBe(plain.stdout);
    const json = await runCli(['validate', broken, '--json'], { isTTY: true });
    expect(json.stdout).not.toContain('\u001b[');
  });

  it('type-checks the agent budget attributes: max_tokens a positive integer, auto_compact a boolean', async () => {
    const file = tmp.write(
      'budget.dot',
      'digraph budget {\n  graph [auto_compact="often"]\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  work [prompt="x", max_tokens="0"]\n  big [prompt="y", max_tokens=64000, auto_compact=true]\n  start -> work -> big -> exit\n}\n',
    );
    const result = await runCli(['validate', file, '--json']);
    const typeWarnings = parseReport(result.stdout).diagnostics.filter((d) => d['rule'] === 'attribute_type');
    expect(typeWarnings.map((d) => [d['node_id'], d['loc']])).toEqual([
      [undefined, expect.objectContaining({ line: 2 })],
      ['work', expect.objectContaining({ line: 5 })],
    ]);
    expect(String(typeWarnings[1]!['message'])).toContain('max_tokens="0" is not a positive integer');
    const plain = await runCli(['validate', file, '--strict']);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/budget\.dot:5:\d+: warning attribute_type: /);
  });

  it('warns on a misspelt attribute with did-you-mean at file:line:col, and --json gives the edit', async () => {
    const file = tmp.write(
      'typo.dot',
      'digraph typo {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  work [promt="x", ui.hint="metadata"]\n  start -> work -> exit\n}\n',
    );
    const plain = await runCli(['validate', file]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(
      /typo\.dot:4:9: warning attribute_unknown: Node work: unknown node attribute "promt" \(did you mean "prompt"\?\)/,
    );
    expect(plain.stdout).not.toContain('ui.hint');
    const report = parseReport((await runCli(['validate', file, '--json'])).stdout);
    const [typo] = report.diagnostics.filter((d) => d['rule'] === 'attribute_unknown');
    expect(typo?.['edits']).toEqual([
      { loc: expect.objectContaining({ line: 4, column: 9 }), find: 'promt', replace: 'prompt' },
    ]);
  });

  it('resolves a relative path against the working directory and shows it as typed', async () => {
    const result = await runCli(['validate', 'broken.dot'], { cwd: tmp.dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/(^|\n)(.*broken\.dot):\d+:\d+: error /);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
