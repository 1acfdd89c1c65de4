import { beforeAll, describe, expect, test } from 'vitest';
import { ActivityPane } from '../../src/tui/ActivityPane.js';
import { Header } from '../../src/tui/Header.js';
import { PipelinePane } from '../../src/tui/PipelinePane.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import type { NodeView, RunState } from '../../src/tui/run-state.js';
import { StatusLine } from '../../src/tui/StatusLine.js';
import { loadMarkdown } from '../../src/tui/use-markdown.js';
import { lines, renderAt } from './render-at.js';
import { ev, graphOf, runToGate } from './tui-fixtures.js';

// The markdown renderer loads with the first text shown (use-markdown.ts); these frames want it there.
beforeAll(async () => {
  await loadMarkdown();
});

const graph = graphOf();
const atGate: RunState = runToGate().reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
const now = Date.parse(atGate.gate ? new Date(atGate.gate.askedAt).toISOString() : '') + 2500;

describe.each([80, 120])('at %i columns', (width) => {
  test('header: name, run id, elapsed, state, goal', async () => {
    const app = renderAt(<Header state={atGate} elapsedMs={83_000} width={width} />, width);
    const [first, second] = lines(app.frame());
    expect(first).toContain('◆ release · run-1');
    expect(first).toMatch(/1m23s · waiting for you$/);
    expect(second).toBe('goal: Ship the health endpoint');
    expect(first?.length).toBe(width);
  });

  test.each([
    ['done', { phase: 'done', quality: 'clean' }, 'done (clean)'],
    ['degraded', { phase: 'done', quality: 'degraded' }, 'done (degraded)'],
    ['paused', { phase: 'paused' }, 'paused'],
    ['pausing', { phase: 'pausing' }, 'pausing after this node'],
    ['failed', { phase: 'failed' }, 'failed'],
  ] as const)('header state %s', async (_name, patch, text) => {
    const app = renderAt(<Header state={{ ...atGate, ...patch }} elapsedMs={0} width={width} />, width);
    expect(lines(app.frame())[0]).toMatch(new RegExp(`${text.replace(/[()]/g, '\\$&')}$`));
  });

  test('pipeline pane: every node with its mark, kind, duration, cost and next edge; groups and branches', async () => {
    const app = renderAt(
      <PipelinePane state={atGate} selected="plan" frame={0} width={width} now={now} />,
      width,
    );
    const frame = app.frame();
    const rows = lines(frame);
    expect(rows.every((r) => r.length <= width)).toBe(true);
    const row = (name: string) => rows.find((r) => new RegExp(`^│[▸ ] +[✓✗◐○⠋↻⊘] ${name} `).test(r)) ?? '';
    expect(row('start')).toMatch(/✓ start\s+start\s+1\.0s\s+→ plan/);
    expect(row('Plan the change')).toMatch(/▸ ✓ Plan the change\s+agent\s+2\.0s\s+\$0\.0123 → implement/);
    expect(frame).toContain('┌ Build');
    expect(row('implement')).toMatch(/^│ {4}✓ implement\s+agent\s+5\.0s\s+→ test/);
    expect(row('test')).toMatch(/✓ test\s+tool\s+1\.0s\s+→ fan/);
    expect(row('fan')).toMatch(/◐ fan\s+parallel\s+10\.0s\s+→ join/);
    expect(frame).toMatch(/⇉ 2\/2 ✓ lint {2}✗ types/);
    expect(row('types')).toMatch(/✗ types\s+agent\s+1\.0s/);
    expect(row('Review')).toMatch(/⠋ Review\s+gate\s+2\.5s/);
    expect(row('done')).toMatch(/○ done\s+exit\s*│$/);
    expect(rows.findIndex((r) => r.includes(' done '))).toBeGreaterThan(
      rows.findIndex((r) => r.includes(' Review ')),
    );
  });

  test('pipeline pane: a retrying node shows attempt n/m', async () => {
    const retrying = [
      ev('node.start', 'plan', { attempt: 1 }),
      ev('node.retry', 'plan', { attempt: 2, reason: 'x' }),
    ].reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
    const nodes = { ...retrying.nodes, plan: { ...(retrying.nodes['plan'] as NodeView), maxAttempts: 3 } };
    const app = renderAt(
      <PipelinePane state={{ ...retrying, nodes }} selected={undefined} frame={0} width={width} now={now} />,
      width,
    );
    expect(app.frame()).toMatch(/↻ Plan the change\s+agent\s+2\/3/);
  });

  test('activity pane: markdown text, code, a tool call with its diff', async () => {
    const node = atGate.nodes['implement'] as NodeView;
    const app = renderAt(
      <ActivityPane node={node} width={width} rows={20} expanded={false} frame={0} />,
      width,
    );
    const frame = app.frame();
    expect(frame).toContain('implement · codergen');
    expect(frame).toContain('Adding the route');
    expect(frame).not.toContain('##');
    expect(frame).toContain('I will edit server.ts:');
    expect(frame).toMatch(/┌ ts\s*│\s*\n│ │ const x = 1;/);
    expect(frame).toMatch(/✓ edit_file src\/server\.ts\s+40ms/);
    expect(frame).toMatch(/- old line[\s│]+\n│ {3}\+ new line/);
    expect(frame).toContain('→ test · only edge');
  });

  test('activity pane: a long streamed answer shows only its tail', async () => {
    const text = Array.from({ length: 500 }, (_, i) => `paragraph ${i}`).join('\n');
    const node: NodeView = {
      ...(atGate.nodes['plan'] as NodeView),
      status: 'running',
      activity: [{ kind: 'text', id: 1, text, done: false }],
    };
    const app = renderAt(
      <ActivityPane node={node} width={width} rows={5} expanded={false} frame={0} />,
      width,
    );
    const frame = app.frame();
    expect(frame).toContain('paragraph 499');
    expect(frame).not.toContain('paragraph 400');
    expect(frame).toContain('⋮');
    expect(lines(frame).length).toBeLessThanOrEqual(5 + 4);
  });

  test('activity pane: tool calls collapse to one line and expand to their output; warnings; errors', async () => {
    const node: NodeView = {
      ...(atGate.nodes['plan'] as NodeView),
      status: 'running',
      activity: [
        {
          kind: 'tool',
          id: 1,
          callId: 'c',
          name: 'shell',
          args: { command: 'npm test' },
          status: 'error',
          output: 'FAIL a.test\n2 failed\nmore',
          durationMs: 2100,
        },
        { kind: 'warning', id: 2, message: 'loop detected: same call 3 times' },
      ],
    };
    const collapsed = renderAt(
      <ActivityPane node={node} width={width} rows={20} expanded={false} frame={0} />,
      width,
    );
    expect(collapsed.frame()).toMatch(/✗ shell npm test\s+2\.1s ▸3 lines/);
    expect(collapsed.frame()).toContain('FAIL a.test');
    expect(collapsed.frame()).not.toContain('2 failed');
    expect(collapsed.frame()).toContain('⚠ loop detected: same call 3 times');
    const expanded = renderAt(
      <ActivityPane node={node} width={width} rows={20} expanded={true} frame={0} />,
      width,
    );
    expect(expanded.frame()).toMatch(/▾3 lines/);
    expect(expanded.frame()).toContain('2 failed');
  });

  test("activity pane: a tool node's output tail, a finished node's notes, failure and route", async () => {
    const tool = renderAt(
      <ActivityPane
        node={{ ...(atGate.nodes['test'] as NodeView), status: 'running' }}
        width={width}
        rows={10}
        expanded={false}
        frame={0}
        outputTail={['PASS a', 'PASS b']}
      />,
      width,
    );
    expect(tool.frame()).toMatch(/test · tool[\s\S]*PASS a[\s\S]*PASS b/);
    const failed = renderAt(
      <ActivityPane node={atGate.nodes['types']} width={width} rows={10} expanded={false} frame={0} />,
      width,
    );
    expect(failed.frame()).toContain('failed: tsc: 2 errors');
    const plan = renderAt(
      <ActivityPane node={atGate.nodes['plan']} width={width} rows={10} expanded={false} frame={0} />,
      width,
    );
    expect(plan.frame()).toContain('notes: planned 3 steps');
    expect(plan.frame()).toContain('→ implement · only edge');
    const pending = renderAt(
      <ActivityPane node={atGate.nodes['done']} width={width} rows={10} expanded={false} frame={0} />,
      width,
    );
    expect(pending.frame()).toContain('not run yet');
  });

  test('status line: model, tokens, cache hits, cost and keys, within the width', async () => {
    const app = renderAt(
      <StatusLine usage={atGate.usage} model="claude-sonnet-4-5" phase="running" width={width} />,
      width,
    );
    const frame = app.frame();
    expect(lines(frame)).toHaveLength(1);
    expect(frame.length).toBeLessThanOrEqual(width);
    expect(frame).toMatch(/^claude-sonnet-4-5 · in 1\.2k out 300 · cache 50% · \$0\.0123/);
    expect(frame).toMatch(
      width >= 100 ? /↑↓ node · ⏎ expand · \? help · \^C pause · \^C\^C cancel$/ : /↑↓ ⏎ \? · \^C pause$/,
    );
  });

  test('status line while pausing says what a second Ctrl-C does', async () => {
    const app = renderAt(<StatusLine usage={atGate.usage} phase="pausing" width={width} />, width);
    expect(app.frame()).toMatch(/\^C again: cancel now$/);
  });
});
