import { linearGraph, lintGraph } from '../../../helpers/lint-graph.js';
import type { RuleCase } from './rule-case.js';

const mdiamond = { shape: 'Mdiamond' };
const msquare = { shape: 'Msquare' };
const work = { prompt: 'Work.' };

/** Graph-shape rules: start, exit, reachability and edge ends. */
export const structuralCases: RuleCase[] = [
  // start_node
  { rule: 'start_node', name: 'one Mdiamond', graph: linearGraph(), expected: [] },
  {
    rule: 'start_node',
    name: 'no start node',
    graph: lintGraph({ nodes: { work, done: msquare }, edges: [['work', 'done']] }),
    expected: ['graph'],
  },
  {
    rule: 'start_node',
    name: 'two Mdiamond nodes',
    graph: linearGraph({ nodes: { again: mdiamond }, edges: [['again', 'work']] }),
    expected: ['again'],
  },
  {
    rule: 'start_node',
    name: 'start found by name',
    graph: lintGraph({
      nodes: { start: {}, work, done: msquare },
      edges: [
        ['start', 'work'],
        ['work', 'done'],
      ],
    }),
    expected: [],
  },
  {
    rule: 'start_node',
    name: 'both `start` and `Start` by name',
    graph: lintGraph({
      nodes: { start: {}, Start: {}, done: msquare },
      edges: [
        ['start', 'done'],
        ['Start', 'done'],
      ],
    }),
    expected: ['Start'],
  },
  // terminal_node
  { rule: 'terminal_node', name: 'one Msquare', graph: linearGraph(), expected: [] },
  {
    rule: 'terminal_node',
    name: 'no exit node',
    graph: lintGraph({ nodes: { start: mdiamond, work }, edges: [['start', 'work']] }),
    expected: ['graph'],
  },
  {
    rule: 'terminal_node',
    name: 'exit found by name `end`',
    graph: lintGraph({
      nodes: { start: mdiamond, work, end: {} },
      edges: [
        ['start', 'work'],
        ['work', 'end'],
      ],
    }),
    expected: [],
  },
  {
    rule: 'terminal_node',
    name: 'two exits are allowed',
    graph: linearGraph({
      nodes: { abort: msquare },
      edges: [['work', 'abort', { condition: 'outcome=fail' }]],
    }),
    expected: [],
  },
  // reachability
  { rule: 'reachability', name: 'all reachable', graph: linearGraph(), expected: [] },
  {
    rule: 'reachability',
    name: 'orphan node',
    graph: linearGraph({ nodes: { orphan: work } }),
    expected: ['orphan'],
  },
  {
    rule: 'reachability',
    name: 'island reaching the exit but unreachable from start',
    graph: linearGraph({ nodes: { island: work }, edges: [['island', 'done']] }),
    expected: ['island'],
  },
  {
    rule: 'reachability',
    name: 'nodes reached only through retry jumps',
    graph: linearGraph({
      attrs: { retry_target: 'replan' },
      nodes: {
        work: { prompt: 'x', goal_gate: true, fallback_retry_target: 'redo' },
        redo: work,
        replan: work,
      },
      edges: [
        ['redo', 'work'],
        ['replan', 'work'],
      ],
    }),
    expected: [],
  },
  {
    rule: 'reachability',
    name: 'graph retry_target without any reached goal gate',
    graph: linearGraph({
      attrs: { retry_target: 'replan' },
      nodes: { replan: work },
      edges: [['replan', 'work']],
    }),
    expected: ['replan'],
  },
  // edge_target_exists
  { rule: 'edge_target_exists', name: 'all edge ends declared', graph: linearGraph(), expected: [] },
  {
    rule: 'edge_target_exists',
    name: 'edges to and from missing nodes',
    graph: lintGraph({
      nodes: { start: mdiamond, work, done: msquare },
      edges: [
        ['start', 'work'],
        ['work', 'ghost'],
        ['phantom', 'done'],
        ['work', 'done'],
      ],
      addImplicitNodes: false,
    }),
    expected: ['work->ghost', 'phantom->done'],
  },
  // start_no_incoming
  { rule: 'start_no_incoming', name: 'nothing enters start', graph: linearGraph(), expected: [] },
  {
    rule: 'start_no_incoming',
    name: 'loop back into start',
    graph: linearGraph({ edges: [['work', 'start', { condition: 'outcome=fail' }]] }),
    expected: ['work->start'],
  },
  // exit_no_outgoing
  { rule: 'exit_no_outgoing', name: 'nothing leaves done', graph: linearGraph(), expected: [] },
  {
    rule: 'exit_no_outgoing',
    name: 'edge out of the exit',
    graph: linearGraph({ edges: [['done', 'work']] }),
    expected: ['done->work'],
  },
];
