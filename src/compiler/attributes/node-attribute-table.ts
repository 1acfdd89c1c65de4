import { BUILTIN_HANDLER_TYPES, FIDELITY_MODES, SHAPE_HANDLERS } from '../ir.js';
import { ISOLATION_MODES, MERGE_MODES } from '../parallel-isolation.js';
import { RETRY_PRESET_NAMES } from '../routing/retry-delay.js';
import { attr } from './attribute-entry.js';

const ALL: readonly string[] = [];
const AGENT = ['codergen'];
const COMMANDS = ['codergen', 'tool'];
const PARALLEL = ['parallel'];
const GATE = ['wait.human'];
const MANAGER = ['stack.manager_loop'];
const BOOL = ['true', 'false'];

/**
 * Every node attribute the compiler's schema types (node-attrs-schema.ts), one row each. Adding an
 * attribute is one line here beside its schema line; test/compiler/attributes fails until both exist.
 */
// biome-ignore format: a table, one attribute per line
export const NODE_ATTRIBUTES = [
  attr('node', 'label', 'text', ALL, 'The name shown for the node. A codergen node without a prompt is asked its label; a label "@path" reads that file as the prompt.'),
  attr('node', 'shape', 'text', ALL, 'Graphviz shape, which also chooses the handler: Mdiamond start, Msquare exit, box codergen, hexagon wait.human, diamond conditional, component parallel, tripleoctagon parallel.fan_in, parallelogram tool, house stack.manager_loop. Other shapes run as codergen.', { values: Object.keys(SHAPE_HANDLERS) }),
  attr('node', 'type', 'text', ALL, 'The handler type, overriding the shape: a built-in type or one the embedding application registers. An unknown type is an error (it would run as a coding agent).', { values: BUILTIN_HANDLER_TYPES }),
  attr('node', 'prompt', 'text', ['codergen', 'wait.human', 'parallel.fan_in', 'stack.manager_loop'], "What the node asks: the coding agent's task, a gate's question, the fan-in's ranking instruction or a manager's steering message. $goal and pipeline parameters expand; \"@path\" reads a file next to the DOT file; {key} expands context keys at run time."),
  attr('node', 'class', 'text', ALL, 'Stylesheet classes, separated by commas or spaces (alias classes). Enclosing labelled subgraphs add theirs.'),
  attr('node', 'max_retries', 'integer', ALL, "How many times a RETRY outcome (or a failure while retries remain) runs the node again; default the graph's default_max_retries, else 0."),
  attr('node', 'max_visits', 'integer', ALL, "Entering the node more often than this routes as its FAIL, bounding fix loops; default the graph's default_max_visits (unset: unlimited)."),
  attr('node', 'goal_gate', 'boolean', ALL, 'true: the run may not exit until this node has succeeded; reaching the exit earlier jumps to its retry_target.', { values: BOOL }),
  attr('node', 'retry_target', 'text', ALL, "The node a FAIL (or an unmet goal gate) jumps to when no edge handles it; default the graph's retry_target."),
  attr('node', 'fallback_retry_target', 'text', ALL, "Where a FAIL goes when retry_target is missing or already used; default the graph's fallback_retry_target."),
  attr('node', 'fidelity', 'text', ALL, "How much of the earlier conversation the node sees: full (the thread continues), compact, truncate or summary:low/medium/high; an incoming edge's fidelity wins over it; default the graph's default_fidelity, then compact.", { values: FIDELITY_MODES }),
  attr('node', 'thread_id', 'text', ALL, "With fidelity=full, nodes naming the same thread share one conversation; default the edge's thread_id, the graph's default_thread_id, the subgraph class, the previous node."),
  attr('node', 'timeout', 'duration', ALL, "Longest a visit may run (900s, 15m, 250ms; a bare number is seconds); past it the visit fails. Not applied to a gate's question: see human.timeout."),
  attr('node', 'llm_model', 'text', AGENT, "The model the node's agent uses (alias model), an id or alias from the model catalog; default the stylesheet's, --model, then the provider's balanced model."),
  attr('node', 'llm_provider', 'text', AGENT, 'The provider of llm_model (alias provider): anthropic, openai or gemini; default detected from the model or the keys present.', { values: ['anthropic', 'openai', 'gemini'] }),
  attr('node', 'reasoning_effort', 'text', AGENT, 'How hard a reasoning model thinks: low, medium or high (passed to providers that support it).', { values: ['low', 'medium', 'high'] }),
  attr('node', 'auto_status', 'boolean', AGENT, 'true: a visit that writes no status.json counts as SUCCESS instead of failing.', { values: BOOL }),
  attr('node', 'allow_partial', 'boolean', ALL, 'true: exhausted retries end PARTIAL_SUCCESS instead of FAIL, and the run goes on.', { values: BOOL }),
  attr('node', 'idempotent', 'boolean', ALL, 'false: resuming a run interrupted inside this node asks before running it again (default true).', { values: BOOL }),
  attr('node', 'retry_policy', 'text', ALL, 'The backoff between retries (alias retry_preset): none, standard (default), aggressive, linear or patient.', { values: RETRY_PRESET_NAMES }),
  attr('node', 'temperature', 'number', AGENT, "Sampling temperature for the node's model calls, also settable from the stylesheet."),
  attr('node', 'max_tokens', 'count', AGENT, "Output tokens each agent turn may produce; default the model's own limit."),
  attr('node', 'max_cost_usd', 'number', AGENT, "This node's own budget in USD per visit, beside the run's: past it the visit fails (decision 0029)."),
  attr('node', 'auto_compact', 'boolean', AGENT, "true: when the agent's context nears its window, older turns are summarised by an extra model call (default: the graph's, else off: the session only warns).", { values: BOOL }),
  attr('node', 'tool_command', 'text', ['tool'], 'The shell command a tool node runs in the working folder (inside the sandbox); its exit status is the outcome and its output goes to the context. Required on tool nodes.'),
  attr('node', 'env_passthrough', 'text', COMMANDS, "Secret environment variables this node's commands may see, by exact name (commas or spaces): GH_TOKEN, NPM_TOKEN. Their values are redacted from output."),
  attr('node', 'sandbox', 'onOff', COMMANDS, "off: this node's commands run outside the sandbox (honoured by the CLI; by serve and worker only with --unsandboxed). Default the graph's, else on.", { values: ['on', 'off'] }),
  attr('node', 'sandbox_egress', 'text', COMMANDS, "Hosts this node's commands may reach through the sandbox's proxy: \"github.com, *.npmjs.org\"; default the graph's, else none."),
  attr('node', 'agent', 'text', AGENT, 'An external coding agent over ACP instead of the built-in one: claude, gemini, codex or acp (with agent_command).', { values: ['claude', 'gemini', 'codex', 'acp'] }),
  attr('node', 'agent_command', 'text', AGENT, "The command that starts the external ACP agent (with agent=acp, or to override a built-in agent's)."),
  attr('node', 'agent_permissions', 'text', AGENT, "What the external agent's permission requests get: allow, deny or ask.", { values: ['allow', 'deny', 'ask'] }),
  attr('node', 'join_policy', 'text', PARALLEL, 'When the fan-out is done: wait_all (default), first_success, or k_of_n with join_k.', { values: ['wait_all', 'first_success', 'k_of_n'] }),
  attr('node', 'join_k', 'integer', PARALLEL, 'How many branches must succeed under join_policy=k_of_n.'),
  attr('node', 'error_policy', 'text', PARALLEL, 'What a failing branch does to the others: fail_fast, continue (default) or ignore.', { values: ['fail_fast', 'continue', 'ignore'] }),
  attr('node', 'max_parallel', 'integer', PARALLEL, 'How many branches run at once (default: all).'),
  attr('node', 'isolation', 'text', PARALLEL, "worktree: each branch works in a folder of its own made from the fan-out's snapshot (default none: branches share the folder).", { values: ISOLATION_MODES }),
  attr('node', 'merge', 'text', PARALLEL, 'Where isolated branches join: all (default, every successful branch in order), best (the branch the fan-in chose) or none.', { values: MERGE_MODES }),
  attr('node', 'human.default_choice', 'text', GATE, 'The option (key, label or target id) a gate takes when human.timeout passes; without it a timeout is RETRY.'),
  attr('node', 'human.timeout', 'duration', GATE, 'How long a gate waits for its answer (0: forever).'),
  attr('node', 'human.freeform', 'text', GATE, 'The option that free text follows (its key, label or target), or true on a gate with one edge; the text goes to the context.'),
  attr('node', 'manager.poll_interval', 'duration', MANAGER, "How often the manager looks at its child run; default the graph's, else 45s."),
  attr('node', 'manager.max_cycles', 'integer', MANAGER, "How many polls the manager makes before it fails; default the graph's, else 1000."),
  attr('node', 'manager.stop_condition', 'text', MANAGER, "A condition over the child's context that ends the manager with SUCCESS when it holds."),
  attr('node', 'manager.actions', 'text', MANAGER, "What each cycle does, commas or spaces: observe, steer, wait (default observe,wait). steer sends the node's prompt to the child."),
  attr('node', 'manager.steer_cooldown', 'duration', MANAGER, 'Least time between two steering messages (default: the poll interval).'),
  attr('node', 'stack.child_dotfile', 'text', MANAGER, "The child pipeline's DOT file, relative to this one; default the graph's."),
  attr('node', 'stack.child_workdir', 'text', MANAGER, "The child's working directory, relative to the run's (decision 0011)."),
  attr('node', 'stack.child_autostart', 'boolean', MANAGER, 'false: observe a child run someone else started instead of starting one (default true).', { values: BOOL }),
] as const;
