import * as z from 'zod';
import { parseDurationMs } from './parse-duration.js';

/**
 * Schemas turning a DOT attribute value (always a string) into its typed value. Each carries a short
 * `description` of what it expects, used in the `attribute_type` diagnostic.
 */

export const stringAttr = z.string();

const INTEGER = /^[+-]?\d+(\.0*)?$/;
const FLOAT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(['true', 'yes', '1', 'on']);
const FALSE = new Set(['false', 'no', '0', 'off']);

/** Integers; `2.0` is accepted as 2 because Graphviz writes numbers that way. */
export const integerAttr = z
  .string()
  .trim()
  .regex(INTEGER)
  .transform((text) => Number.parseInt(text, 10))
  .describe('an integer such as 3');

/** Counts that must be at least 1 (a token budget of 0 would make every answer fail). */
export const positiveIntegerAttr = z
  .string()
  .trim()
  .regex(INTEGER)
  .transform((text) => Number.parseInt(text, 10))
  .refine((value) => value >= 1)
  .describe('a positive integer such as 16000');

export const floatAttr = z.string().trim().regex(FLOAT).transform(Number).describe('a number such as 1.5');

export const booleanAttr = z
  .string()
  .trim()
  .toLowerCase()
  .refine((text) => TRUE.has(text) || FALSE.has(text))
  .transform((text) => TRUE.has(text))
  .describe('a boolean: true or false (yes/no and 1/0 also work)');

/** Durations in milliseconds. */
export const durationAttr = z
  .string()
  .refine((text) => parseDurationMs(text) !== undefined)
  .transform((text) => parseDurationMs(text)!)
  .describe('a duration such as 900s, 15m, 250ms or 2h (a bare number is seconds)');

/** `on` or `off` (a node's or graph's `sandbox`). */
export const onOffAttr = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['on', 'off']))
  .describe('on or off');
