import { describe, expect, it } from 'vitest';
import { parseDot } from '../../src/compiler/parse/parse-dot.js';
import { type RunEndingInput, runEnding } from '../../src/run/run-ending.js';

const GRAPH = parseDot(`digraph g {
  start [shape=Mdiamond]
  test [shape=parallelogram, tool_command="npm test"]
  fix [prompt="Fix"]
  check [prompt="Check"]
  lone [prompt="Lone"]
  exit [shape=Msquare]
  start -> test
  test -> exit [condition="outcome=success"]
  test -> fix [condition="outcome=fail"]
  fix -> test
  check -> exit [condition="context.ok=true"]
}`).graph;

const base: RunEndingInput = {
  status: 'completed',
  stoppedAt: 'exit',
  failedNodes: [],
  nodeOutcomes: {},
  completedNodes: ['start', 'test', 'exit'],
};

describe('runEnding: the quality rule', () => {
  it.each([
    { name: 'reached an exit, nothing failed', input: {}, quality: 'clean', recovered: [] },
    {
      name: 'red, then green: the test failed and its latest visit passed',
      input: { failedNodes: ['test'], completedNodes: ['start', 'test', 'fix', 'exit'] },
      quality: 'clean',
      recovered: ['test'],
    },
    {
      name: 'a failure routed around and never repaired',
      input: { failedNodes: ['test'], nodeOutcomes: { test: 'fail' as const } },
      quality: 'degraded',
      recovered: [],
    },
    {
      name: 'repaired to partial success still counts as repaired',
      input: { failedNodes: ['test'], nodeOutcomes: { test: 'partial_success' as const } },
      quality: 'clean',
      recovered: ['test'],
    },
    {
      name: 'a failure before a loop restart, not run again since (completed nodes were reset)',
      input: { failedNodes: ['fix'], completedNodes: ['test', 'exit'] },
      quality: 'degraded',
      recovered: [],
    },
    {
      name: 'a failed run',
      input: { status: 'failed', stoppedAt: 'test' },
      quality: 'failed',
      recovered: [],
    },
    { name: 'a paused run', input: { status: 'paused', stoppedAt: 'fix' }, quality: 'failed', recovered: [] },
  ])('$name: $quality', ({ input, quality, recovered }) => {
    const ending = runEnding(GRAPH, { ...base, ...input });
    expect(ending.quality).toBe(quality);
    expect(ending.recoveredNodes).toEqual(recovered);
    expect(ending.deadEnd).toBeUndefined();
  });

  it.each([
    { at: 'check', reason: 'ended at check: no edge matched' },
    { at: 'lone', reason: 'ended at lone: it has no outgoing edge' },
  ])('completing at $at, not an exit, is a dead end: degraded, with the reason', ({ at, reason }) => {
    expect(runEnding(GRAPH, { ...base, stoppedAt: at })).toEqual({
      quality: 'degraded',
      recoveredNodes: [],
      deadEnd: { node: at, reason },
    });
  });

  it('a node named exit is an exit when no node has the exit shape', () => {
    const graph = parseDot('digraph g { start [shape=Mdiamond]; exit [prompt="x"]; start -> exit }').graph;
    expect(runEnding(graph, { ...base, stoppedAt: 'exit' }).quality).toBe('clean');
  });

  it('without the graph, no dead end can be told from an exit', () => {
    expect(runEnding(undefined, { ...base, stoppedAt: 'check' }).quality).toBe('clean');
  });
});
