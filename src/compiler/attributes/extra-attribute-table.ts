import { attr } from './attribute-entry.js';

const AGENT = ['codergen'];

/**
 * Attributes the code reads by name from the extra attributes (no schema types them), one row each.
 * Read them only through `readExtraAttribute`, whose key is one of these names.
 */
// biome-ignore format: a table, one attribute per line
export const EXTRA_ATTRIBUTES = [
  attr('graph', 'max_cost_usd', 'number', [], "The run's budget in USD when --max-cost is not given: past it the run pauses (decision 0029).", { read: 'extra' }),
  attr('graph', 'tool_hooks.pre', 'text', [], "A shell command run before each tool call of every agent node (the tool's name and arguments in its environment); a non-zero exit blocks the call. A node's own wins.", { read: 'extra' }),
  attr('graph', 'tool_hooks.post', 'text', [], "A shell command run after each tool call of every agent node; a node's own wins.", { read: 'extra' }),
  attr('node', 'tool_hooks.pre', 'text', AGENT, "A shell command run before each of this agent's tool calls; a non-zero exit blocks the call. Default the graph's.", { read: 'extra' }),
  attr('node', 'tool_hooks.post', 'text', AGENT, "A shell command run after each of this agent's tool calls. Default the graph's.", { read: 'extra' }),
] as const;

/** The names `readExtraAttribute` may read. */
export type ExtraAttributeName = (typeof EXTRA_ATTRIBUTES)[number]['name'];
