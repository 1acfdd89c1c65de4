import { StageStatusSchema } from '../compiler/outcome.js';

/**
 * Keys a condition can test that the built-in handlers set, beside `outcome` and `preferred_label`
 * (docs/semantics.md S5): what completion offers in `condition="…"`.
 */
export const CONDITION_KEYS: readonly string[] = [
  'outcome',
  'preferred_label',
  'context.human.gate.selected',
  'context.human.gate.label',
  'context.human.gate.text',
  'context.tool.output',
  'context.tool.last_line',
  'context.tool.exit_code',
  'context.parallel.outcome',
  'context.parallel.fan_in.best_id',
  'context.parallel.fan_in.best_outcome',
  'context.stack.child.outcome',
  'context.stack.child.status',
];

/** The statuses `outcome=` compares with. */
export const OUTCOME_VALUES: readonly string[] = StageStatusSchema.options;
