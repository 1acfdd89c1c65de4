import { FIDELITY_MODES } from '../ir.js';
import { attr } from './attribute-entry.js';

const ALL: readonly string[] = [];
const BOOL = ['true', 'false'];

/** Every graph attribute the compiler's schema types (graph-attrs-schema.ts), one row each. */
// biome-ignore format: a table, one attribute per line
export const GRAPH_ATTRIBUTES = [
  attr('graph', 'goal', 'text', ALL, 'What the pipeline is for; $goal in prompts expands to it (--goal overrides).'),
  attr('graph', 'vars', 'text', ALL, 'Pipeline parameters, commas between them, a default after "=": vars="feature, env=staging". $name expands in prompts; --set name=value sets one.'),
  attr('graph', 'label', 'text', ALL, "The pipeline's title in drawings and the web view."),
  attr('graph', 'model_stylesheet', 'text', ALL, 'CSS-like rules that set model properties on nodes by *, shape, .class or #id: "* { llm_model: claude-sonnet-4-6; } .review { reasoning_effort: high; }". Explicit node attributes win.'),
  attr('graph', 'default_max_retries', 'integer', ALL, 'max_retries of nodes that set none (alias default_max_retry); default 0.'),
  attr('graph', 'default_max_visits', 'integer', ALL, 'max_visits of nodes that set none; unset: unlimited.'),
  attr('graph', 'retry_target', 'text', ALL, 'Where a FAIL or an unmet goal gate goes when the node names no retry_target.'),
  attr('graph', 'fallback_retry_target', 'text', ALL, 'Where a FAIL goes when no retry_target applies.'),
  attr('graph', 'default_fidelity', 'text', ALL, 'fidelity of nodes and edges that set none (default compact).', { values: FIDELITY_MODES }),
  attr('graph', 'default_thread_id', 'text', ALL, 'The thread of full-fidelity nodes that name none.'),
  attr('graph', 'router_model', 'text', ALL, 'The model asked to choose among llm_decide edges.'),
  attr('graph', 'env_passthrough', 'text', ALL, "Secret environment variables every command of the run may see, by exact name; a node's own adds to it."),
  attr('graph', 'sandbox', 'onOff', ALL, "off: commands run outside the sandbox (honoured by the CLI; by serve and worker only with --unsandboxed); a node's own wins.", { values: ['on', 'off'] }),
  attr('graph', 'sandbox_egress', 'text', ALL, 'Hosts commands may reach through the sandbox\'s proxy: "github.com, registry.npmjs.org"; a node\'s own wins.'),
  attr('graph', 'auto_compact', 'boolean', ALL, 'auto_compact of agent nodes that set none.', {
    values: BOOL,
  }),
  attr('graph', 'agent', 'text', ALL, 'The external ACP agent of codergen nodes that name none.', {
    values: ['claude', 'gemini', 'codex', 'acp'],
  }),
  attr('graph', 'agent_command', 'text', ALL, 'The command starting the external agent, for nodes that name none.'),
  attr('graph', 'agent_permissions', 'text', ALL, 'agent_permissions of nodes that set none: allow, deny or ask.', { values: ['allow', 'deny', 'ask'] }),
  attr('graph', 'stack.child_dotfile', 'text', ALL, 'The child pipeline of manager nodes that name none.'),
  attr('graph', 'stack.child_workdir', 'text', ALL, "The child's working directory for manager nodes that name none."),
  attr('graph', 'stack.child_autostart', 'boolean', ALL, 'stack.child_autostart of manager nodes that set none.', { values: BOOL }),
  attr('graph', 'stack.max_depth', 'integer', ALL, 'How many levels of child pipelines may nest under this one (default 8; a child never goes deeper than its parent allows).'),
  attr('graph', 'manager.poll_interval', 'duration', ALL, 'manager.poll_interval of manager nodes that set none.'),
  attr('graph', 'manager.steer_cooldown', 'duration', ALL, 'manager.steer_cooldown of manager nodes that set none.'),
  attr('graph', 'manager.max_cycles', 'integer', ALL, 'manager.max_cycles of manager nodes that set none.'),
  attr('graph', 'manager.stop_condition', 'text', ALL, 'manager.stop_condition of manager nodes that set none.'),
] as const;
