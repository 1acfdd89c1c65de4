import { readExtraAttribute } from './attributes/read-extra-attribute.js';
import type { PipelineGraph } from './ir.js';

/** One way a pipeline runs a command of its own on the machine executing it. */
export interface PipelineCommand {
  /** The node that runs it; undefined for the graph's own attribute. */
  nodeId: string | undefined;
  via: 'tool node' | 'manager loop' | 'tool_hooks.pre' | 'tool_hooks.post' | 'agent_command';
}

const HOOKS = ['tool_hooks.pre', 'tool_hooks.post'] as const;

/**
 * Every command a pipeline's text makes the machine run: tool nodes (`tool_command`), manager loops (their
 * child pipeline may run anything), `tool_hooks.pre` / `tool_hooks.post` (graph or node: run around each
 * agent tool call) and `agent_command` (graph or node: the process of an external agent). A server or
 * worker without `--allow-tools` refuses a pipeline for which this is not empty (a dry run runs none).
 * The graph's own attributes are counted even where no node would use them: a refusal need not guess.
 */
export function pipelineCommands(graph: PipelineGraph): PipelineCommand[] {
  const found: PipelineCommand[] = [];
  for (const via of HOOKS)
    if (readExtraAttribute(graph.extra, via)?.trim()) found.push({ nodeId: undefined, via });
  if (graph.attrs.agent_command?.trim()) found.push({ nodeId: undefined, via: 'agent_command' });
  for (const node of graph.nodes) {
    if (node.handler === 'tool') found.push({ nodeId: node.id, via: 'tool node' });
    if (node.handler === 'stack.manager_loop') found.push({ nodeId: node.id, via: 'manager loop' });
    for (const via of HOOKS)
      if (readExtraAttribute(node.extra, via)?.trim()) found.push({ nodeId: node.id, via });
    const agentCommand = node.attrs.agent_command?.trim();
    if (agentCommand && agentCommand !== graph.attrs.agent_command?.trim())
      found.push({ nodeId: node.id, via: 'agent_command' });
  }
  return found;
}

/** `work (tool node), the graph's tool_hooks.pre`: what `pipelineCommands` found, for a message. */
export function describePipelineCommands(commands: readonly PipelineCommand[]): string {
  return commands
    .map((c) => (c.nodeId === undefined ? `the graph's ${c.via}` : `${c.nodeId} (${c.via})`))
    .join(', ');
}
