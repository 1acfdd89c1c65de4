import type { InspectionEvent } from 'xstate';
import { loadPipeline } from '../../src/compiler/compile.js';
import type { PipelineGraph } from '../../src/compiler/ir.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';

/** A pipeline with a subgraph, a parallel fan-out, a tool node, a human gate and two exits. */
export const GATE_PIPELINE = `digraph release {
  graph [goal="Ship the health endpoint"]
  start [shape=Mdiamond]
  plan [label="Plan the change", llm_model="claude-sonnet-4-5"]
  subgraph cluster_build {
    label="Build"
    implement
    test [shape=parallelogram, tool_command="npm test"]
  }
  fan [shape=component]
  lint
  types
  join [shape=tripleoctagon]
  review [shape=hexagon, label="Review"]
  done [shape=Msquare]
  start -> plan -> implement -> test -> fan
  fan -> lint
  fan -> types
  lint -> join
  types -> join
  join -> review
  review -> done [label="[A] Approve"]
  review -> plan [label="[R] Revise"]
}`;

export function graphOf(source = GATE_PIPELINE): PipelineGraph {
  return loadPipeline(source).graph;
}

let clock = Date.parse('2026-11-23T09:00:00.000Z');

/** An event at a deterministic, advancing time (1 s per event unless told). */
export function ev(
  kind: string,
  node?: string,
  data: Record<string, unknown> = {},
  stepMs = 1000,
): PipelineEvent {
  clock += stepMs;
  // A fixture gives only the fields the view reads.
  return {
    kind,
    ...(node ? { node_id: node } : {}),
    data,
    timestamp: new Date(clock).toISOString(),
  } as PipelineEvent;
}

/** The events of a run from start to the gate at `review`, with agent activity in `implement`. */
export function runToGate(): PipelineEvent[] {
  return [
    ev('pipeline.start', undefined, { name: 'release', goal: 'Ship the health endpoint', run_id: 'run-1' }),
    ev('node.start', 'start', { attempt: 1 }),
    ev('node.complete', 'start', { status: 'success' }),
    ev('node.start', 'plan', { attempt: 1 }),
    ev('agent.usage', 'plan', {
      model: 'claude-sonnet-4-5',
      usage: { inputTokens: 1200, outputTokens: 300, totalTokens: 1500, cacheReadTokens: 600 },
      cost_usd: 0.0123,
    }),
    ev('node.complete', 'plan', { status: 'success', notes: 'planned 3 steps' }),
    ev('node.start', 'implement', { attempt: 1 }),
    ev('agent.assistant_text_delta', 'implement', { text: '## Adding the route\n' }),
    ev('agent.assistant_text_delta', 'implement', {
      text: 'I will edit `server.ts`:\n```ts\nconst x = 1;\n```\n',
    }),
    ev('agent.tool_call_start', 'implement', {
      tool_name: 'edit_file',
      tool_call_id: 'c1',
      arguments: { path: 'src/server.ts', old_string: 'old line', new_string: 'new line' },
    }),
    // 40 ms after its start: the call's duration comes from its events' times.
    ev('agent.tool_call_end', 'implement', { tool_call_id: 'c1', output: 'edited', is_error: false }, 40),
    ev('node.complete', 'implement', { status: 'success' }, 1960),
    ev('node.start', 'test', { attempt: 1 }),
    ev('node.complete', 'test', { status: 'success', notes: 'exit 0' }),
    ev('node.start', 'fan', { attempt: 1 }),
    ev('parallel.start', 'fan', { branches: ['lint', 'types'] }),
    ev('parallel.branch.start', 'fan', { branch: 'lint' }),
    ev('node.start', 'lint', { attempt: 1, branch: 'lint' }),
    ev('node.complete', 'lint', { status: 'success', branch: 'lint' }),
    ev('parallel.branch.complete', 'fan', { branch: 'lint', status: 'success' }),
    ev('parallel.branch.start', 'fan', { branch: 'types' }),
    ev('node.start', 'types', { attempt: 1, branch: 'types' }),
    ev('node.complete', 'types', { status: 'fail', failure_reason: 'tsc: 2 errors', branch: 'types' }),
    ev('parallel.branch.complete', 'fan', { branch: 'types', status: 'fail' }),
    ev('node.complete', 'fan', { status: 'partial_success' }),
    ev('node.start', 'join', { attempt: 1 }),
    ev('node.complete', 'join', { status: 'success' }),
    ev('node.start', 'review', { attempt: 1 }),
    ev(
      'interview.start',
      'review',
      {
        question: 'Ship it?',
        type: 'multiple_choice',
        options: [
          { key: 'A', label: '[A] Approve', target: 'done' },
          { key: 'R', label: '[R] Revise', target: 'plan' },
        ],
        timeout_ms: 30000,
      },
      0,
    ),
  ];
}

/**
 * An inspection event as XState's actor system reports a snapshot of the pipeline's root actor (the
 * fields the TUI reads; the real thing from a live run is in test/tui/run-store-actor.test.ts).
 */
export function rootSnapshot(
  value: string | Record<string, string>,
  context: { pauseRequested?: boolean } = {},
  status: 'active' | 'done' = 'active',
  sessionId = 'x:0',
): InspectionEvent {
  return {
    type: '@xstate.snapshot',
    rootId: 'x:0',
    actorRef: { sessionId },
    snapshot: { value, status, context: { pauseRequested: false, ...context } },
    event: { type: 'xstate.init' },
  } as unknown as InspectionEvent;
}
