import * as z from 'zod';
import { RoleSchema } from '../auth/role.js';

/**
 * What changed state: the run routes, a session opened or closed, a token created or revoked, and a
 * role granted or revoked (to a user or group, by `attractor role` or an admin's request). A new
 * kind of state-changing request gets a name here, so the trail never records a free-form action.
 */
export const AuditActionSchema = z.enum([
  'start',
  'answer',
  'cancel',
  'resume',
  'fork',
  'token-create',
  'token-revoke',
  'role-grant',
  'role-revoke',
  'sign-in',
  'sign-out',
]);
export type AuditAction = z.infer<typeof AuditActionSchema>;

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

/** One state-changing request, as the server tells the log: who asked what, and how it ended. */
export const AuditEventSchema = z
  .object({
    /**
     * A person, a token's name (a refused one's too), `token` (the single `--token`), `anonymous`, or
     * for `attractor token` and `attractor role` the OS user who ran it.
     */
    who: z.string().min(1),
    action: AuditActionSchema,
    run_id: z.string().min(1).optional(),
    /** The run a fork made. */
    new_run_id: z.string().min(1).optional(),
    question_id: z.string().min(1).optional(),
    node: z.string().min(1).optional(),
    /** What a token or role change was about: a token's name, `user:<email or subject>`, `group:<name>`. */
    subject: z.string().min(1).optional(),
    /** The role a token was created or revoked with, or a role change granted or revoked. */
    role: RoleSchema.optional(),
    outcome: z.enum(['ok', 'refused']),
    /** The HTTP status the request was answered with; for `attractor token`, its exit status. */
    status: z.number().int(),
    /** The `error.code` of a refused request's answer. */
    error_code: z.string().min(1).optional(),
  })
  .strict();
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/** A line of the trail: the event, its place (`seq`, from 1), its time and its link in the chain. */
export const AuditEntrySchema = AuditEventSchema.extend({
  seq: z.number().int().positive(),
  at: z.string().datetime(),
  /** The `hash` of the entry before (64 zeros for the first). */
  prev: Hex64,
  /** SHA-256 of this entry's canonical line without `hash`, `prev` included. */
  hash: Hex64,
}).strict();
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
