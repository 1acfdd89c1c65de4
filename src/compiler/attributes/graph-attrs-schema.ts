import * as z from 'zod';
import { booleanAttr, durationAttr, integerAttr, onOffAttr, stringAttr } from './attribute-value-schemas.js';

/** Graph attributes. */
export const graphAttrShape = {
  goal: stringAttr,
  /** Pipeline parameters: `vars="feature, env=staging"` (defaults after `=`). */
  vars: stringAttr,
  label: stringAttr,
  model_stylesheet: stringAttr,
  default_max_retries: integerAttr,
  /** `max_visits` of nodes that set none; unset = unlimited. */
  default_max_visits: integerAttr,
  retry_target: stringAttr,
  fallback_retry_target: stringAttr,
  default_fidelity: stringAttr,
  default_thread_id: stringAttr,
  router_model: stringAttr,
  env_passthrough: stringAttr,
  /** `off`: commands run outside the sandbox (honoured by the CLI; by serve/worker only with --unsandboxed). */
  sandbox: onOffAttr,
  /** Hosts the sandbox lets commands reach through its proxy: `github.com, registry.npmjs.org`. */
  sandbox_egress: stringAttr,
  /** `auto_compact` of agent nodes that set none. */
  auto_compact: booleanAttr,
  agent: stringAttr,
  agent_command: stringAttr,
  agent_permissions: stringAttr,
  'stack.child_dotfile': stringAttr,
  'stack.child_workdir': stringAttr,
  'stack.child_autostart': booleanAttr,
  /** How many levels of child pipelines may nest under this one (default 8; a child never goes deeper than its parent allows). */
  'stack.max_depth': integerAttr,
  'manager.poll_interval': durationAttr,
  'manager.steer_cooldown': durationAttr,
  'manager.max_cycles': integerAttr,
  'manager.stop_condition': stringAttr,
} as const;

export const graphAttrsSchema = z.object(graphAttrShape).partial();
