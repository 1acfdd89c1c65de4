import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, test } from 'vitest';
import { SessionUpdateEvents } from '../../src/actors/acp/session-update-events.js';
import { ActivityPane } from '../../src/tui/ActivityPane.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import type { NodeView, RunState } from '../../src/tui/run-state.js';
import { lines, renderAt } from './render-at.js';
import { ev, graphOf } from './tui-fixtures.js';

const graph = graphOf();

/** An ACP agent's session updates as they reach the TUI: mapped to `agent.*` events, then reduced. */
function nodeAfter(updates: SessionUpdate[]): NodeView {
  const mapper = new SessionUpdateEvents();
  const events = [
    ev('pipeline.start', undefined, { name: 'release' }),
    ev('node.start', 'implement', { attempt: 1 }),
    ...updates.flatMap((u) => mapper.map(u)).map((e) => ev(e.kind, 'implement', e.data, 10)),
  ];
  const state: RunState = events.reduce((s, e) => reduceRunState(graph, s, e), initialRunState(graph));
  return state.nodes['implement'] as NodeView;
}

const thought = (text: string): SessionUpdate => ({
  sessionUpdate: 'agent_thought_chunk',
  content: { type: 'text', text },
});
const said = (text: string): SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text },
});
const plan = (...entries: Array<[string, 'pending' | 'in_progress' | 'completed']>): SessionUpdate => ({
  sessionUpdate: 'plan',
  entries: entries.map(([content, status]) => ({ content, status, priority: 'medium' })),
});

const THINKING = [
  'The health endpoint needs a route.',
  'Check how the server registers routes first.',
  'Then add a test.',
];

describe.each([80, 120])('ACP thoughts and plan in the activity pane at %i columns', (width) => {
  test('a thought streams into one collapsed line; expanded, its lines', async () => {
    const node = nodeAfter([
      thought(`${THINKING[0]}\n`),
      thought(`${THINKING[1]}\n${THINKING[2]}`),
      said('I will add the route.'),
    ]);
    expect(node.activity.map((item) => item.kind)).toEqual(['thought', 'text']);
    const collapsed = renderAt(
      <ActivityPane node={node} width={width} rows={20} expanded={false} frame={0} />,
      width,
    );
    const frame = collapsed.frame();
    expect(frame).toMatch(/✻ thinking: The health endpoint needs a route\.\s+▸3 lines/);
    expect(frame).not.toContain(THINKING[1]);
    expect(frame).toContain('I will add the route.');
    for (const row of lines(frame)) expect(row.length).toBeLessThanOrEqual(width);
    collapsed.unmount();

    const expanded = renderAt(
      <ActivityPane node={node} width={width} rows={20} expanded={true} frame={0} />,
      width,
    );
    expect(expanded.frame()).toMatch(/✻ thinking\s+▾3 lines/);
    for (const line of THINKING) expect(expanded.frame()).toContain(line);
    expanded.unmount();
  });

  test('the plan shows each entry with its status mark; an update replaces it and moves it last', async () => {
    const node = nodeAfter([
      plan(
        ['Read the server setup', 'in_progress'],
        ['Add GET /health', 'pending'],
        ['Write a test', 'pending'],
      ),
      said('Looking at the server.'),
      plan(
        ['Read the server setup', 'completed'],
        ['Add GET /health', 'in_progress'],
        ['Write a test', 'pending'],
      ),
    ]);
    expect(node.activity.map((item) => item.kind)).toEqual(['text', 'plan']);
    const app = renderAt(
      <ActivityPane node={node} width={width} rows={20} expanded={false} frame={0} />,
      width,
    );
    const rows = lines(app.frame());
    expect(rows.some((r) => /≡ plan 1\/3 done/.test(r))).toBe(true);
    expect(rows.some((r) => /✓ Read the server setup/.test(r))).toBe(true);
    expect(rows.some((r) => /⠋ Add GET \/health/.test(r))).toBe(true);
    expect(rows.some((r) => /○ Write a test/.test(r))).toBe(true);
    // Only the latest plan: its heading once, after the text that came between the updates.
    expect(rows.filter((r) => r.includes('≡ plan'))).toHaveLength(1);
    const between = rows.findIndex((r) => r.includes('Looking at the server.'));
    expect(between).toBeGreaterThan(-1);
    expect(rows.findIndex((r) => r.includes('≡ plan'))).toBeGreaterThan(between);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(width);
    app.unmount();
  });

  test('a long plan, collapsed, shows the entries around the one in progress; expanded, all', async () => {
    const steps = Array.from({ length: 16 }, (_, i) => `Step ${i + 1}`);
    const node = nodeAfter([
      plan(
        ...steps.map((s, i): [string, 'pending' | 'in_progress' | 'completed'] => [
          s,
          i < 6 ? 'completed' : i === 6 ? 'in_progress' : 'pending',
        ]),
      ),
    ]);
    const collapsed = renderAt(
      <ActivityPane node={node} width={width} rows={20} expanded={false} frame={0} />,
      width,
    );
    const frame = collapsed.frame();
    expect(frame).toContain('≡ plan 6/16 done');
    expect(frame).toContain('⋮ 5 done before');
    expect(frame).toMatch(/✓ Step 6\b/);
    expect(frame).toMatch(/⠋ Step 7\b/);
    expect(frame).toMatch(/○ Step 13\b/);
    expect(frame).not.toMatch(/Step 5\b/);
    expect(frame).not.toMatch(/Step 14\b/);
    expect(frame).toContain('… 3 more');
    collapsed.unmount();
    const expanded = renderAt(
      <ActivityPane node={node} width={width} rows={40} expanded={true} frame={0} />,
      width,
    );
    for (const step of steps) expect(expanded.frame()).toMatch(new RegExp(`${step}\\b`));
    expanded.unmount();
  });
});
