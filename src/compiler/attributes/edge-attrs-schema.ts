import * as z from 'zod';
import { booleanAttr, floatAttr, stringAttr } from './attribute-value-schemas.js';

/** Edge attributes. `weight` may be a float: DOT accepts `weight=2.0`. */
export const edgeAttrShape = {
  label: stringAttr,
  condition: stringAttr,
  weight: floatAttr,
  fidelity: stringAttr,
  thread_id: stringAttr,
  loop_restart: booleanAttr,
  llm_decide: booleanAttr,
} as const;

export const edgeAttrsSchema = z.object(edgeAttrShape).partial();
