import type { Context, MiddlewareHandler } from 'hono';
import * as z from 'zod';
import { definedFields } from '../../shared/defined-fields.js';
import type { AuditEvent } from './audit-entry.js';
import type { AuditLog } from './audit-log.js';
import { auditNote } from './audit-notes.js';
import { type AuditedRequest, auditedRequest } from './audited-routes.js';

/** Who sent a request, once it is answered: a person, a token's name (a refused one's too), `anonymous`. */
export type IdentifyAudited = (request: Request) => string;

const AnswerBodySchema = z.object({
  id: z.string().optional(),
  error: z.object({ code: z.string() }).optional(),
});

/**
 * Audits every request of an `AUDITED_ROUTES` route once its answer is known. It runs outside the
 * guards (auth, four-eyes, body limit), so a request they refuse is recorded with its status and error
 * code as one the handler refused is. The action has happened by then: an append that fails is
 * reported through `onError` and the answer is left as it is.
 */
export function auditRequests(
  log: AuditLog,
  identify: IdentifyAudited,
  onError: (error: Error) => void,
): MiddlewareHandler {
  return async (c, next) => {
    const audited = auditedRequest(c.req.method, c.req.path);
    if (!audited) return next();
    await next();
    const event = await auditEvent(c, audited, identify(c.req.raw));
    await log
      .append(event)
      .catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
  };
}

async function auditEvent(c: Context, { action, params }: AuditedRequest, who: string): Promise<AuditEvent> {
  const status = c.res.status;
  const answer = AnswerBodySchema.safeParse(
    await c.res
      .clone()
      .json()
      .catch(() => ({})),
  );
  const body = answer.success ? answer.data : {};
  const note = auditNote(c.req.raw);
  const ok = status < 400;
  return {
    who,
    action,
    ...definedFields({
      run_id: action === 'start' ? (ok ? body.id : undefined) : params['id'],
      new_run_id: action === 'fork' && ok ? body.id : undefined,
      question_id: params['qid'],
      node: note.node,
      subject: note.subject,
      role: note.role,
      error_code: ok ? undefined : (body.error?.code ?? note.error_code),
    }),
    outcome: ok ? 'ok' : 'refused',
    status,
  };
}
