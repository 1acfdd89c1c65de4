import * as z from 'zod';
import {
  booleanAttr,
  durationAttr,
  floatAttr,
  integerAttr,
  onOffAttr,
  positiveIntegerAttr,
  stringAttr,
} from './attribute-value-schemas.js';

/**
 * Node attributes, keyed by canonical DOT name.
 * Input: the DOT strings; output: typed values, durations in milliseconds.
 */
export const nodeAttrShape = {
  label: stringAttr,
  shape: stringAttr,
  type: stringAttr,
  prompt: stringAttr,
  class: stringAttr,
  max_retries: integerAttr,
  /** Entering the node more often routes as its FAIL (DECISIONS: bounded fix loops). */
  max_visits: integerAttr,
  goal_gate: booleanAttr,
  retry_target: stringAttr,
  fallback_retry_target: stringAttr,
  fidelity: stringAttr,
  thread_id: stringAttr,
  timeout: durationAttr,
  llm_model: stringAttr,
  llm_provider: stringAttr,
  reasoning_effort: stringAttr,
  auto_status: booleanAttr,
  allow_partial: booleanAttr,
  /** false: a resume asks before running this node again after it was interrupted (default true). */
  idempotent: booleanAttr,
  retry_policy: stringAttr,
  temperature: floatAttr,
  /** Output tokens each agent turn may produce (default: the model's own limit). */
  max_tokens: positiveIntegerAttr,
  /** This node's own budget in USD per visit, beside the run's: past it the visit fails (decision 0029). */
  max_cost_usd: floatAttr,
  /**
   * true: when the agent's context nears its window, older turns are summarised by an extra model call
   * (off by default: the session only warns).
   */
  auto_compact: booleanAttr,
  tool_command: stringAttr,
  env_passthrough: stringAttr,
  /** `off`: commands run outside the sandbox (honoured by the CLI; by serve/worker only with --unsandboxed). */
  sandbox: onOffAttr,
  /** Hosts the sandbox lets commands reach through its proxy: `github.com, registry.npmjs.org`. */
  sandbox_egress: stringAttr,
  agent: stringAttr,
  agent_command: stringAttr,
  agent_permissions: stringAttr,
  join_policy: stringAttr,
  join_k: integerAttr,
  error_policy: stringAttr,
  max_parallel: integerAttr,
  /** `worktree`: each branch of a parallel node works in a folder of its own (default `none`). */
  isolation: stringAttr,
  /** Where isolated branches join: `all` (default), `best` or `none`. */
  merge: stringAttr,
  'human.default_choice': stringAttr,
  'human.timeout': durationAttr,
  /** The option free text follows (key, label or target), or `true` on a gate with one edge. */
  'human.freeform': stringAttr,
  /** true: the person who started the run may not answer this gate (four-eyes, docs/guides/teams.md). */
  'human.four_eyes': booleanAttr,
  'manager.poll_interval': durationAttr,
  'manager.max_cycles': integerAttr,
  'manager.stop_condition': stringAttr,
  'manager.actions': stringAttr,
  'stack.child_dotfile': stringAttr,
  /** The child's working directory, relative to the run's (decision 0011). */
  'stack.child_workdir': stringAttr,
  /** false: observe a child run someone else started instead of starting one. */
  'stack.child_autostart': booleanAttr,
  /** Least time between two steering messages (default: the poll interval). */
  'manager.steer_cooldown': durationAttr,
} as const;

export const nodeAttrsSchema = z.object(nodeAttrShape).partial();
