import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/compiler/compile.js';
import {
  describePipelineCommands,
  type PipelineCommand,
  pipelineCommands,
} from '../../src/compiler/pipeline-commands.js';

/** A pipeline start → body → exit, with `graphAttrs` on the graph and `body` the middle node(s). */
function pipeline(graphAttrs: string, body: string): string {
  return `digraph p {
    ${graphAttrs ? `graph [${graphAttrs}]` : ''}
    start [shape=Mdiamond]
    exit [shape=Msquare]
    ${body}
    start -> work -> exit
  }`;
}

const cases: Array<{ name: string; graph: string; body: string; expected: PipelineCommand[] }> = [
  { name: 'an agent node and a gate run nothing', graph: '', body: 'work [prompt="hi"]', expected: [] },
  {
    name: 'a tool node (its shape)',
    graph: '',
    body: 'work [shape=parallelogram, tool_command="make"]',
    expected: [{ nodeId: 'work', via: 'tool node' }],
  },
  {
    name: 'a tool node (its type)',
    graph: '',
    body: 'work [type="tool", tool_command="make"]',
    expected: [{ nodeId: 'work', via: 'tool node' }],
  },
  {
    name: 'a manager loop (its child pipeline may run anything)',
    graph: '',
    body: 'work [shape=house, stack.child_dotfile="kid.dot"]',
    expected: [{ nodeId: 'work', via: 'manager loop' }],
  },
  {
    name: "the graph's tool_hooks.pre",
    graph: 'tool_hooks.pre="id > pwned.txt"',
    body: 'work [prompt="hi"]',
    expected: [{ nodeId: undefined, via: 'tool_hooks.pre' }],
  },
  {
    name: "the graph's tool_hooks.post",
    graph: 'tool_hooks.post="touch x"',
    body: 'work [prompt="hi"]',
    expected: [{ nodeId: undefined, via: 'tool_hooks.post' }],
  },
  {
    name: "a node's tool_hooks.pre and .post",
    graph: '',
    body: 'work [prompt="hi", tool_hooks.pre="a", tool_hooks.post="b"]',
    expected: [
      { nodeId: 'work', via: 'tool_hooks.pre' },
      { nodeId: 'work', via: 'tool_hooks.post' },
    ],
  },
  {
    name: 'an empty hook runs nothing',
    graph: 'tool_hooks.pre=" "',
    body: 'work [prompt="hi"]',
    expected: [],
  },
  {
    name: "the graph's agent_command, once (not again on each agent node it is copied to)",
    graph: 'agent="acp", agent_command="my-agent --acp"',
    body: 'work [prompt="hi"]',
    expected: [{ nodeId: undefined, via: 'agent_command' }],
  },
  {
    name: "a node's own agent_command",
    graph: '',
    body: 'work [prompt="hi", agent="acp", agent_command="other-agent"]',
    expected: [{ nodeId: 'work', via: 'agent_command' }],
  },
];

describe('pipelineCommands: every way a pipeline runs a command', () => {
  it.each(cases)('$name', ({ graph, body, expected }) => {
    const loaded = loadPipeline(pipeline(graph, body));
    expect(pipelineCommands(loaded.graph)).toEqual(expected);
  });

  it('describes them for a message, node by node', () => {
    expect(
      describePipelineCommands([
        { nodeId: 'work', via: 'tool node' },
        { nodeId: undefined, via: 'tool_hooks.pre' },
      ]),
    ).toBe("work (tool node), the graph's tool_hooks.pre");
  });
});
