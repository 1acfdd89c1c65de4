import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJunit } from '../helpers/parse-junit.js';
import { runCli, STACK_LINE } from './run-cli.js';
import { tempPipelines } from './temp-pipelines.js';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));

// A tool node copies a file the case seeds; a gate chooses between two ends.
const PIPELINE = `digraph copy {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  copy [shape=parallelogram, tool_command="cat in.txt > out.txt"]
  gate [shape=hexagon, label="Keep it?"]
  discard [shape=parallelogram, tool_command="rm out.txt"]
  start -> copy
  copy -> gate [condition="outcome=success"]
  copy -> exit [condition="outcome=fail"]
  gate -> exit [label="[K] Keep"]
  gate -> discard [label="[D] Discard"]
  discard -> exit
}
`;

const PASSING = `pipeline: copy.dot
cases:
  - name: keeps the copy
    files: { in.txt: hello }
    expect:
      route: [start, copy, gate, exit]
      files: { out.txt: hello, in.txt: { contains: ell } }
      status: completed
  - name: discards the copy
    files: { in.txt: hello }
    answers: { gate: [D] }
    expect:
      visits: [discard]
      files: { out.txt: { exists: false } }
`;

const FAILING = `pipeline: copy.dot
cases:
  - name: "expects <keep> & gets it"
    files: { in.txt: hello }
    expect: { route: [start, copy, gate, exit] }
  - name: "expects the discard & gets <keep>"
    files: { in.txt: hello }
    expect:
      route: [start, copy, gate, discard, exit]
      files: { out.txt: { exists: false } }
  - name: without in.txt the copy fails
    expect: { route: [start, copy, exit], context: { tool.exit_code: 0 } }
`;

describe('attractor test', () => {
  const temp = tempPipelines();
  afterAll(temp.cleanup);
  temp.write('copy.dot', PIPELINE);
  temp.write('copy.test.yaml', PASSING);
  temp.write('failing.test.yaml', FAILING);
  const cwd = temp.dir;

  it('--help documents the flags, with examples and exit codes', async () => {
    const result = await runCli(['test', '--help']);
    for (const text of [
      '--reporter <name>',
      '--output <file>',
      '--coverage',
      '--jobs <n>',
      'Examples:',
      'Exit codes:',
    ])
      expect(result.stdout).toContain(text);
    expect(result.code).toBe(0);
  });

  it('runs a passing test file: every case listed, exit 0', async () => {
    const result = await runCli(['test', 'copy.dot'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('✓ keeps the copy');
    expect(result.stdout).toContain('✓ discards the copy');
    expect(result.stdout).toMatch(/2 passed, 0 failed \(1 test file\)/);
    expect(result.code).toBe(0);
  });

  it('shows a failing route side by side, and a file and context value that differ; exit 1', async () => {
    const result = await runCli(['test', 'failing.test.yaml'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✓ expects <keep> & gets it');
    expect(result.stdout).toContain('✗ expects the discard & gets <keep>');
    expect(result.stdout).toContain(
      [
        '        #  expected  actual',
        '        1  start     start',
        '        2  copy      copy',
        '        3  gate      gate',
        '      > 4  discard   exit',
        '        5  exit      –',
      ].join('\n'),
    );
    expect(result.stdout).toContain('file out.txt: expected none, it exists');
    expect(result.stdout).toContain('context tool.exit_code: expected 0, got 1');
    expect(result.stdout).toMatch(/1 passed, 2 failed/);
  });

  it('writes JUnit XML that reads back with the counts and failure messages', async () => {
    const result = await runCli(['test', '.', '--reporter', 'junit'], { cwd });
    expect(result.code).toBe(1);
    const report = parseJunit(result.stdout);
    expect(report.attributes).toMatchObject({ tests: '5', failures: '2' });
    expect(
      report.suites.map((s) => [s.attributes['name'], s.attributes['tests'], s.attributes['failures']]),
    ).toEqual([
      ['copy.test.yaml', '2', '0'],
      ['failing.test.yaml', '3', '2'],
    ]);
    const failing = report.suites[1]?.cases ?? [];
    expect(failing.map((c) => c.attributes['name'])).toEqual([
      'expects <keep> & gets it',
      'expects the discard & gets <keep>',
      'without in.txt the copy fails',
    ]);
    expect(failing[0]?.failure).toBeUndefined();
    expect(failing[1]?.failure?.message).toBe('route differs:');
    expect(failing[1]?.failure?.text).toContain('> 4  discard   exit');
    expect(failing[1]?.failure?.text).toContain('file out.txt: expected none, it exists');
    expect(failing[2]?.failure?.message).toBe('context tool.exit_code: expected 0, got 1');
  });

  it('--output writes the report to a file (its folder made) and says so on stderr', async () => {
    const result = await runCli(
      ['test', 'copy.dot', '--reporter', 'junit', '--output', 'reports/results.xml'],
      {
        cwd,
      },
    );
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('attractor: 2 passed, 0 failed; report in reports/results.xml\n');
    const written = readFileSync(path.join(cwd, 'reports', 'results.xml'), 'utf8');
    expect(parseJunit(written).attributes['tests']).toBe('2');
    expect(result.code).toBe(0);
  });

  it('--reporter json prints one object for scripts, with --coverage what no case exercised', async () => {
    const result = await runCli(['test', 'copy.dot', '--reporter', 'json', '--coverage'], { cwd });
    const report = JSON.parse(result.stdout) as {
      passed: number;
      failed: number;
      files: { file: string; cases: { name: string; route: string[]; passed: boolean }[] }[];
      coverage: {
        pipeline: string;
        nodes: { missed: string[] };
        edges: { missed: { from: string; to: string }[] };
      }[];
    };
    expect(report).toMatchObject({ passed: 2, failed: 0 });
    expect(report.files[0]?.cases.map((c) => c.route)).toEqual([
      ['start', 'copy', 'gate', 'exit'],
      ['start', 'copy', 'gate', 'discard', 'exit'],
    ]);
    expect(report.coverage[0]?.pipeline).toBe('copy.dot');
    expect(report.coverage[0]?.nodes.missed).toEqual([]);
    expect(report.coverage[0]?.edges.missed).toEqual([expect.objectContaining({ from: 'copy', to: 'exit' })]);
    expect(result.code).toBe(0);
  });

  it.each([
    {
      what: 'a bad test file',
      files: { 'bad.test.yaml': 'pipeline: copy.dot\ncases:\n  - name: a\n    expect: { rout: [start] }\n' },
      args: ['bad.test.yaml'],
      error: /^attractor: bad\.test\.yaml:4:15: cases\.0\.expect: unknown field "rout"\. A test file is/,
    },
    {
      what: 'a test file naming a missing pipeline',
      files: { 'lost.test.json': '{"pipeline": "nowhere.dot", "cases": [{"name": "a", "expect": {}}]}' },
      args: ['lost.test.json'],
      error:
        /^attractor: cannot read the pipeline nowhere\.dot that lost\.test\.json names: .*nowhere\.dot\.\n$/,
    },
    {
      what: 'a pipeline with no test file',
      files: { 'alone.dot': PIPELINE },
      args: ['alone.dot'],
      error: /^attractor: alone\.dot: no test file next to it \(alone\.test\.json or \.test\.yaml\)\.\n$/,
    },
  ])('$what: one paragraph on stderr, no stack, exit 1', async ({ files, args, error }) => {
    const own = tempPipelines();
    try {
      for (const [name, text] of Object.entries(files)) own.write(name, text);
      own.write('copy.dot', PIPELINE);
      const result = await runCli(['test', ...args], { cwd: own.dir });
      expect(result.stderr).toMatch(error);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toMatch(STACK_LINE);
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
    } finally {
      own.cleanup();
    }
  });

  it('fails a case whose cassette cannot be read, and runs the others', async () => {
    const own = tempPipelines();
    try {
      own.write('copy.dot', PIPELINE);
      own.write(
        'copy.test.yaml',
        [
          'pipeline: copy.dot',
          'cases:',
          '  - { name: replays nothing, cassette: missing.jsonl, expect: {} }',
          '  - { name: runs, files: { in.txt: x }, expect: { visits: [gate] } }',
        ].join('\n'),
      );
      const result = await runCli(['test', '.'], { cwd: own.dir });
      expect(result.stdout).toMatch(
        /✗ replays nothing[^\n]*\n +the run could not start: cannot read cassette .*missing\.jsonl\./,
      );
      expect(result.stdout).toContain('✓ runs');
      expect(result.code).toBe(1);
    } finally {
      own.cleanup();
    }
  });

  it('holds a cassette run to its cost limits', async () => {
    const own = tempPipelines();
    try {
      own.write(
        'agent.test.yaml',
        [
          `pipeline: ${path.join(examples, '10-agent-tdd.dot')}`,
          'cases:',
          '  - name: too dear',
          `    cassette: ${path.join(examples, 'agent', '10-agent-tdd.cassette.jsonl')}`,
          '    expect: { status: completed, cost: { max_usd: 0.000001, max_output_tokens: 10 } }',
        ].join('\n'),
      );
      const result = await runCli(['test', 'agent.test.yaml'], { cwd: own.dir });
      expect(result.stdout).toMatch(/cost cost_usd: [\d.]+ is over max_usd 0\.000001/);
      expect(result.stdout).toMatch(/cost output_tokens: \d+ is over max_output_tokens 10/);
      expect(result.code).toBe(1);
    } finally {
      own.cleanup();
    }
  }, 60_000);
});
