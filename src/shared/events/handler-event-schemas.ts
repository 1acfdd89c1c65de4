import * as z from 'zod';
import { eventData } from './event-data-object.js';

/** What a node's handler reports while it works: fan-outs, human gates, manager loops, the router. */
export const handlerEventSchemas = {
  'parallel.start': eventData({
    branches: z.array(z.string()),
    join_policy: z.string(),
    error_policy: z.string(),
    max_parallel: z.number(),
  }),
  'parallel.branch.start': eventData({ branch: z.string(), index: z.number(), start_node: z.string() }),
  'parallel.branch.complete': eventData({
    branch: z.string(),
    index: z.number(),
    status: z.string(),
    success: z.boolean(),
    /** 0 for a branch restored after a crash: its time then is not known. */
    duration_ms: z.number(),
    cancelled: z.literal(true).optional(),
    restored: z.literal(true).optional(),
  }),
  /** The counts are missing when the fan-out was cancelled (`cancelled: true`). */
  'parallel.complete': eventData({
    status: z.string(),
    succeeded: z.number().optional(),
    failed: z.number().optional(),
    total: z.number().optional(),
    duration_ms: z.number(),
    cancelled: z.literal(true).optional(),
  }),
  'interview.start': eventData({
    question: z.string(),
    type: z.enum(['yes_no', 'multiple_choice', 'freeform', 'confirmation']),
    options: z.array(
      z.object({ key: z.string(), label: z.string(), target: z.string().optional() }).strict(),
    ),
    /** The option whose answer is free text. */
    text_option: z.string().optional(),
    timeout_ms: z.number().optional(),
    default_choice: z.string().optional(),
  }),
  /** The option chosen (and the free text), or `refused` (an answer naming no option), or `skipped`. */
  'interview.complete': eventData({
    key: z.string().optional(),
    label: z.string().optional(),
    target: z.string().optional(),
    text: z.string().optional(),
    refused: z.string().optional(),
    skipped: z.literal(true).optional(),
    /** Who gave the answer (`shared/identity.ts`); `run` for one the run gave itself. */
    answered_by: z.string().optional(),
  }),
  'interview.timeout': eventData({
    default_choice: z.string().nullable(),
    /** The option the default named, when it named one. */
    selected: z.string().optional(),
  }),
  'manager.cycle': eventData({
    cycle: z.number(),
    child_state: z.string(),
    child_node: z.string().nullable(),
  }),
  /** `file`: the `steering.md` written into the child's stage folder. */
  'manager.steer': eventData({ cycle: z.number(), child_node: z.string(), file: z.string().optional() }),
  'router.decision': eventData({
    model: z.string(),
    answer: z.string(),
    choice: z.string().nullable(),
    candidates: z.array(z.string()),
  }),
  'router.error': eventData({ model: z.string().optional(), error: z.string() }),
} as const;
