import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { lowerToMachineConfig } from '../../../src/compiler/lower/lower-to-machine-config.js';
import type {
  MachineConfig,
  StateConfig,
  TransitionConfig,
} from '../../../src/compiler/lower/machine-config.js';
import { stateKey } from '../../../src/compiler/lower/state-keys.js';
import { parseDot } from '../../../src/compiler/parse/parse-dot.js';
import { compileMachine } from '../../../src/machines/compile-machine.js';

const config = (source: string) => lowerToMachineConfig(parseDot(source).graph);

/** A node's routing: the transitions of its `route` state, entered once the outcome is recorded. */
function routes(c: MachineConfig, id: string): TransitionConfig[] {
  const route = c.states[id]?.states?.['route'];
  expect(route?.entry).toEqual([{ type: 'decideRoute', params: { node: id } }]);
  return route?.always ?? [];
}

describe('lowerToMachineConfig', () => {
  const source = `digraph g {
    start [shape=Mdiamond]
    work [prompt="w"]
    gate [shape=hexagon]
    join [shape=tripleoctagon]
    exit [shape=Msquare]
    start -> work
    work -> gate [condition="outcome=success", weight=2]
    work -> work [loop_restart=true]
    gate -> join
    join -> exit
  }`;

  it('makes one compound state per node that invokes handler.<type> and routes on its outcome', () => {
    const c = config(source);
    expect(Object.keys(c.states)).toEqual(
      expect.arrayContaining([
        'start',
        'work',
        'gate',
        'join',
        'exit',
        '__dispatch',
        '__completed',
        '__failed',
      ]),
    );
    const work = c.states['work'];
    expect(work?.initial).toBe('enter');
    expect(work?.states?.['run']?.invoke?.src).toBe('handler.codergen');
    expect(work?.states?.['run']?.invoke?.input).toEqual({ node: 'work' });
    expect(c.states['gate']?.states?.['run']?.invoke?.src).toBe('handler.wait.human');
    // The outcome is recorded on the way out of `run`; `route` then decides where to go.
    expect(Object.keys(work?.states ?? {})).toEqual(['enter', 'run', 'route', 'backoff']);
  });

  it('records a handler error like its outcome, then routes both through the same route state', () => {
    const invoke = config(source).states['work']?.states?.['run']?.invoke;
    expect(invoke?.onDone).toEqual([
      { target: 'route', actions: [{ type: 'recordOutcome', params: { node: 'work' } }] },
    ]);
    expect(invoke?.onError).toEqual([
      { target: 'route', actions: [{ type: 'recordError', params: { node: 'work' } }] },
    ]);
  });

  it('emits one guarded transition per outgoing edge, its params showing the edge, then jump/end/fail', () => {
    const route = routes(config(source), 'work');
    expect(route.map((t) => t.guard?.type ?? 'else')).toEqual([
      'shouldRetry',
      'routesToEdge',
      'routesToEdge',
      'routesToJump',
      'routesToEnd',
      'else',
    ]);
    expect(route[1]?.guard?.params).toEqual({
      node: 'work',
      edge: 1,
      target: 'gate',
      condition: 'outcome=success',
      weight: 2,
    });
    expect(route[1]?.target).toBe('#pipeline.gate');
    expect(route[2]?.guard?.params).toEqual({ node: 'work', edge: 2, target: 'work', loop_restart: true });
    expect(route[2]?.actions?.map((a) => a.type)).toEqual(['traverseEdge', 'restartLoop']);
  });

  it('ends a parallel branch straight from an edge into a fan-in, guarded like the edge itself', () => {
    const route = routes(config(source), 'gate');
    expect(route.map((t) => t.guard?.type ?? 'else')).toEqual([
      'shouldRetry',
      'endsBranchAt',
      'routesToEdge',
      'routesToJump',
      'routesToEnd',
      'else',
    ]);
    const [, ends, edge] = route;
    expect(ends?.guard?.params).toEqual(edge?.guard?.params);
    expect(ends?.target).toBe('#pipeline.__branch_done');
    expect(ends?.actions).toEqual([
      ...(edge?.actions ?? []),
      { type: 'stopBranchAt', params: { node: 'join' } },
    ]);
    // Edges into other nodes have no such transition.
    const work = routes(config(source), 'work');
    expect(work.some((t) => t.guard?.type === 'endsBranchAt')).toBe(false);
  });

  it('draws retry targets and goal-gate targets as direct transitions, not through __dispatch', () => {
    const c = config(`digraph g {
      retry_target="plan"
      start [shape=Mdiamond]
      plan
      build [goal_gate=true, retry_target="plan", fallback_retry_target="fix"]
      fix
      check [goal_gate=true]
      exit [shape=Msquare]
      start -> plan -> build -> check -> exit
      fix -> build
    }`);
    const build = routes(c, 'build');
    const jumps = build.filter((t) => t.guard?.type === 'routesToRetryTarget');
    expect(jumps.map((t) => [t.guard?.params, t.target])).toEqual([
      [{ node: 'build', target: 'plan' }, '#pipeline.plan'],
      [{ node: 'build', target: 'fix' }, '#pipeline.fix'],
    ]);
    const exit = routes(c, 'exit');
    expect(exit.map((t) => t.guard?.type ?? 'else')).toEqual([
      'shouldRetry',
      'goalGateRetries',
      'goalGateUnsatisfied',
      'else',
    ]);
    // Both gates retry at `plan` (the gate's own target, then the graph's): one transition.
    expect(exit[1]?.target).toBe('#pipeline.plan');
  });

  it('a node that can end the run (no unconditional edge) checks the goal gates as an exit does', () => {
    const gated = (gate: string) =>
      config(`digraph g {
        start [shape=Mdiamond]
        build [${gate}retry_target="build"]
        check
        exit [shape=Msquare]
        start -> build -> check
        check -> exit [condition="context.ok=true"]
      }`);
    const kinds = (c: MachineConfig, id: string) => routes(c, id).map((t) => t.guard?.type ?? 'else');
    expect(kinds(gated('goal_gate=true, '), 'check')).toEqual([
      'shouldRetry',
      'routesToEdge',
      'routesToJump',
      'goalGateRetries',
      'goalGateUnsatisfied',
      'routesToEnd',
      'else',
    ]);
    // A node with an unconditional edge never ends the run there; without goal gates there is nothing to check.
    expect(kinds(gated('goal_gate=true, '), 'build')).not.toContain('goalGateUnsatisfied');
    expect(kinds(gated(''), 'check')).not.toContain('goalGateUnsatisfied');
  });

  it('stops parallel branches at fan-in nodes', () => {
    const c = config(source);
    expect(c.states['join']?.states?.['enter']?.always?.map((t) => t.guard?.type ?? 'else')).toEqual([
      'stepLimitReached',
      'pauseRequested',
      'isBranchRun',
      'else',
    ]);
  });

  it("draws a parallel node's jump to the fan-in its branches converge on", () => {
    const c = config(`digraph g {
      start [shape=Mdiamond]
      fan [shape=component]
      a
      b
      b2
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> fan
      fan -> a -> join
      fan -> b -> b2 -> join
      join -> exit
    }`);
    const route = routes(c, 'fan');
    const jump = route.find((t) => t.guard?.type === 'jumpsTo');
    expect(jump?.guard?.params).toEqual({ node: 'fan', target: 'join' });
    expect(jump?.target).toBe('#pipeline.join');
    expect(jump?.actions).toEqual([{ type: 'jumpFromNode', params: { node: 'fan', target: 'join' } }]);
    // Before the run-time jump through __dispatch, which stays for a fan-in the graph does not tell.
    expect(route.indexOf(jump!)).toBeLessThan(route.findIndex((t) => t.guard?.type === 'routesToJump'));
    // Only parallel nodes get one.
    expect(routes(c, 'a').some((t) => t.guard?.type === 'jumpsTo')).toBe(false);
  });

  it('keeps the dispatch table linear in the graph (one jump per node)', () => {
    const c = config(source);
    expect(c.states['__dispatch']?.always).toHaveLength(5 + 1);
  });

  it('is plain JSON: serialising and parsing gives the same config', () => {
    const c = config(source);
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
  });

  it.each([
    ['review', 'review'],
    ['review-1', 'review-1'],
    ['a.b', 'a~2e~b'],
    ['__x', '~__x'],
  ])('state key of %s is %s', (id, key) => {
    expect(stateKey(id)).toBe(key);
  });
});

const examplesDir = fileURLToPath(new URL('../../../examples/', import.meta.url));
const examples = readdirSync(examplesDir)
  .filter((f) => f.endsWith('.dot'))
  .sort();

/** Every transition of a config, with the guard and action names it uses. */
function transitions(c: MachineConfig): TransitionConfig[] {
  const all: TransitionConfig[] = [...Object.values(c.on)];
  const walk = (state: StateConfig) => {
    all.push(...(state.always ?? []), ...Object.values(state.after ?? {}));
    if (state.invoke) all.push(...state.invoke.onDone, ...state.invoke.onError);
    for (const child of Object.values(state.states ?? {})) walk(child);
  };
  for (const state of Object.values(c.states)) walk(state);
  return all;
}

describe('every example compiles to a machine that starts', () => {
  it.each(examples)('%s', (name) => {
    const file = path.join(examplesDir, name);
    const compiled = compileMachine(readFileSync(file, 'utf8'), { file });
    const { config: c, graph, machine } = compiled;
    // One state per node plus the control states; every edge drawn once, with its target and condition.
    expect(Object.keys(c.states)).toHaveLength(graph.nodes.length + 6);
    for (const n of graph.nodes) {
      expect(c.states[stateKey(n.id)]?.states?.['run']?.invoke?.src).toBe(`handler.${n.handler}`);
      // The retry wait is an invoked actor, so a persisted snapshot taken during it restores (decision 0020).
      expect(c.states[stateKey(n.id)]?.states?.['backoff']?.invoke?.src).toBe('retryBackoff');
    }
    const edgeGuards = transitions(c).filter((t) => t.guard?.type === 'routesToEdge');
    expect(edgeGuards).toHaveLength(
      graph.edges.filter((e) => graph.nodes.find((n) => n.id === e.source)?.handler !== 'exit').length,
    );
    for (const t of edgeGuards) {
      const edge = graph.edges.find((e) => e.index === t.guard?.params?.['edge']);
      expect(t.guard?.params?.['target']).toBe(edge?.target);
      expect(t.guard?.params?.['condition']).toBe(edge?.attrs.condition?.trim() || undefined);
      expect(t.target).toBe(`#pipeline.${stateKey(edge?.target ?? '')}`);
    }
    // Linear in the graph: a bounded number of transitions per node and edge.
    expect(transitions(c).length).toBeLessThanOrEqual(20 * graph.nodes.length + 4 * graph.edges.length + 10);
    // Every name the plain config uses is implemented by the machine.
    const impl = machine.implementations;
    for (const t of transitions(c)) {
      if (t.guard) expect(impl.guards).toHaveProperty([t.guard.type]);
      for (const a of t.actions ?? []) expect(impl.actions).toHaveProperty([a.type]);
    }
    expect(impl.actors).toHaveProperty(['retryBackoff']);
    const start = graph.nodes.find((n) => n.handler === 'start')?.id ?? 'start';
    const actor = createActor(machine, {
      input: { startAt: start, runDir: tmpdir(), values: {}, maxSteps: 10 },
    });
    expect(() => actor.start()).not.toThrow();
    expect(actor.getSnapshot().value).toHaveProperty(stateKey(start));
    actor.stop();
  });
});
