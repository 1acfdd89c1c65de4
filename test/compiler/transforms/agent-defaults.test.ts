import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../../src/compiler/compile.js';

const attrsOf = (source: string, id: string) =>
  loadPipeline(source).graph.nodes.find((node) => node.id === id)?.attrs ?? {};

const dot = (graphAttrs: string, workAttrs = '') => `digraph g {
  graph [${graphAttrs}]
  start [shape=Mdiamond]
  work [prompt="Do it"${workAttrs}]
  test [shape=parallelogram, tool_command="true"]
  exit [shape=Msquare]
  start -> work -> test -> exit
}`;

describe('agent attributes: node, stylesheet, graph', () => {
  it.each([
    [
      'graph default reaches codergen nodes',
      dot('agent="claude", agent_permissions="allow"'),
      'claude',
      'allow',
    ],
    ['node value wins over the graph', dot('agent="claude"', ', agent="gemini"'), 'gemini', undefined],
    [
      'stylesheet wins over the graph',
      dot('agent="claude", model_stylesheet="#work { agent: codex }"'),
      'codex',
      undefined,
    ],
    ['stylesheet universal rule', dot('model_stylesheet="* { agent: gemini }"'), 'gemini', undefined],
  ])('%s', (_name, source, agent, permissions) => {
    const attrs = attrsOf(source, 'work');
    expect(attrs.agent).toBe(agent);
    expect(attrs.agent_permissions).toBe(permissions);
  });

  it('the graph default leaves tool, start and exit nodes alone', () => {
    const source = dot('agent="claude", agent_command="x"');
    for (const id of ['test', 'start', 'exit']) expect(attrsOf(source, id).agent).toBeUndefined();
    expect(attrsOf(source, 'work').agent_command).toBe('x');
  });
});
