import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../../src/shared/events/event-data-schemas.js';
import { pipelineEventLineSchema } from '../../../src/shared/events/event-line-schema.js';
import { runCli } from '../../cli/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));
const examples = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.dot'))
  .sort();

/** Every line of a run's events.jsonl, parsed strictly: the issues of a line that fails, with the line. */
function checkLog(runDir: string): { kinds: string[]; failures: string[] } {
  const lines = readFileSync(path.join(runDir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
  const kinds: string[] = [];
  const failures: string[] = [];
  for (const line of lines) {
    const parsed = pipelineEventLineSchema.safeParse(JSON.parse(line));
    if (parsed.success) kinds.push(parsed.data.kind);
    else
      failures.push(
        `${line}\n  ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
  }
  return { kinds, failures };
}

async function run(args: string[], cwd?: string): Promise<{ code: number; runDir: string }> {
  const runDir = path.join(tempDir('attractor-events-'), 'run');
  const result = await runCli(['run', ...args, '--logs-dir', runDir], {
    env: { PATH: process.env['PATH'] },
    ...(cwd ? { cwd } : {}),
  });
  return { code: result.code, runDir };
}

/** What the examples' dry runs do not reach: a tool command that really runs and fails. */
const FAILING_TOOL = `digraph failing_tool {
  graph [goal="show a failing tool"]
  start [shape=Mdiamond]
  build [shape=parallelogram, tool_command="echo building; exit 3"]
  exit [shape=Msquare]
  start -> build
  build -> exit
}`;
describe('pipelineEventLineSchema', () => {
  const seen = new Set<string>();

  it.each(examples)(
    'parses every line of a dry run of examples/%s',
    async (name) => {
      const { runDir } = await run([path.join(EXAMPLES, name), '--dry-run']);
      const { kinds, failures } = checkLog(runDir);
      expect(failures).toEqual([]);
      expect(kinds.at(-1)).toBe('pipeline.finalize');
      for (const kind of kinds) seen.add(kind);
    },
    60_000,
  );

  it('parses every line of an agent run (the shipped replay of examples/10-agent-tdd.dot)', async () => {
    const work = tempDir('attractor-events-work-');
    const cassette = path.join(EXAMPLES, 'agent', '10-agent-tdd.cassette.jsonl');
    const { code, runDir } = await run(
      [path.join(EXAMPLES, '10-agent-tdd.dot'), '--replay', cassette, '--workdir', work],
      work,
    );
    expect(code).toBe(0);
    const { kinds, failures } = checkLog(runDir);
    expect(failures).toEqual([]);
    expect(kinds).toEqual(
      expect.arrayContaining(['agent.tool_call_start', 'agent.tool_call_end', 'agent.usage']),
    );
    for (const kind of kinds) seen.add(kind);
  }, 60_000);

  it.each([['a tool that fails', FAILING_TOOL, 'pipeline.error']])(
    'parses every line of %s',
    async (_what, source, kind) => {
      const file = path.join(tempDir('attractor-events-dot-'), 'p.dot');
      writeFileSync(file, source);
      const { runDir } = await run([file]);
      const { kinds, failures } = checkLog(runDir);
      expect(failures).toEqual([]);
      expect(kinds).toContain(kind);
      for (const k of kinds) seen.add(k);
    },
    60_000,
  );

  it('the runs above wrote the lifecycle kinds they are meant to cover', () => {
    for (const kind of [
      'pipeline.start',
      'node.start',
      'node.complete',
      'edge.selected',
      'checkpoint.saved',
      'parallel.start',
      'parallel.branch.complete',
      'interview.start',
      'interview.complete',
      'manager.cycle',
      'pipeline.finalize',
    ])
      expect(seen).toContain(kind);
  });

  it.each([
    ['an unknown kind', { kind: 'node.started', data: {}, timestamp: '2026-01-01T00:00:00.000Z' }],
    [
      'an unknown field',
      { kind: 'goal_gate.retry', data: { target: 'a', tagret: 'b' }, timestamp: '2026-01-01T00:00:00.000Z' },
    ],
    ['a missing field', { kind: 'node.jump', data: { target: 'a' }, timestamp: '2026-01-01T00:00:00.000Z' }],
    [
      'a field of the wrong type',
      { kind: 'loop.restart', data: { target: 'a', restart: '1' }, timestamp: '2026-01-01T00:00:00.000Z' },
    ],
    ['no timestamp', { kind: 'goal_gate.retry', data: { target: 'a' } }],
  ])('refuses %s', (_what, line) => {
    expect(pipelineEventLineSchema.safeParse(line).success).toBe(false);
  });

  it('accepts the tags every event may carry, and has a schema for every kind it lists', () => {
    const line = {
      kind: 'goal_gate.retry',
      node_id: 'gate',
      data: { target: 'a', branch: 'b1', parent: 'manager' },
      timestamp: '2026-01-01T00:00:00.000Z',
    };
    expect(pipelineEventLineSchema.parse(line)).toEqual(line);
    expect(new Set(EVENT_KINDS).size).toBe(EVENT_KINDS.length);
  });
});
