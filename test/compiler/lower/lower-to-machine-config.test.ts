import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { lowerToMachineConfig } from '../../../src/compiler/lower/lower-to-machine-config.js';
import { stateKey } from '../../../src/compiler/lower/state-keys.js';
import { parseDot } from '../../../src/compiler/parse/parse-dot.js';
import { compileMachine } from '../../../src/machines/compile-machine.js';

const config = (source: string) => lowerToMachineConfig(parseDot(source).graph);

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
  });

  it('emits one guarded transition per outgoing edge, each asking the routing function, then jump/end/fail', () => {
    const route = config(source).states['work']?.states?.['route']?.always ?? [];
    expect(route.map((t) => t.guard?.type ?? 'else')).toEqual([
      'shouldRetry',
      'routesToEdge',
      'routesToEdge',
      'routesToJump',
      'routesToEnd',
      'else',
    ]);
    expect(route[1]?.guard?.params).toEqual({ node: 'work', edge: 1 });
    expect(route[1]?.target).toBe('#pipeline.gate');
    expect(route[2]?.actions?.map((a) => a.type)).toEqual(['traverseEdge', 'restartLoop']);
  });

  it('checks goal gates at exit nodes and stops parallel branches at fan-in nodes', () => {
    const c = config(source);
    expect(c.states['exit']?.states?.['route']?.always?.map((t) => t.guard?.type ?? 'else')).toEqual([
      'shouldRetry',
      'goalGateJump',
      'goalGateUnsatisfied',
      'else',
    ]);
    expect(c.states['join']?.states?.['enter']?.always?.map((t) => t.guard?.type ?? 'else')).toEqual([
      'stepLimitReached',
      'pauseRequested',
      'isBranchRun',
      'else',
    ]);
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

describe('every example compiles to a machine that starts', () => {
  it.each(examples)('%s', (name) => {
    const file = path.join(examplesDir, name);
    const compiled = compileMachine(readFileSync(file, 'utf8'), { file });
    expect(compiled.config).toMatchSnapshot();
    const { machine } = compiled;
    const start = compiled.graph.nodes.find((n) => n.handler === 'start')?.id ?? 'start';
    const actor = createActor(machine, { input: { startAt: start, values: {}, maxSteps: 10 } });
    expect(() => actor.start()).not.toThrow();
    expect(actor.getSnapshot().value).toHaveProperty(stateKey(start));
    actor.stop();
  });
});
