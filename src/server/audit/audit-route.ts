import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { definedFields } from '../../shared/defined-fields.js';
import type { AuditAction, AuditEvent } from './audit-entry.js';
import type { AuditLog } from './audit-log.js';

/** Who sent a request, as the server identifies it (a person, a token's name, `token`, `anonymous`). */
export type IdentifyRequest = (request: Request) => string;

/** A middleware that audits the route it is put on as `action`. */
export type AuditRoute = (action: AuditAction) => MiddlewareHandler;

const AnswerBodySchema = z.object({
  id: z.string().optional(),
  error: z.object({ code: z.string() }).optional(),
});
const ForkBodySchema = z.object({ from_node: z.string().min(1).optional() });

/**
 * Audit a route once its answer is known: after the handler (or the error handler for what it threw),
 * so a refused request is recorded with its status and error code. The action has happened by then; an
 * append that fails is reported through `onError` and the answer is left as it is.
 */
export function auditRoutes(
  log: AuditLog,
  identify: IdentifyRequest,
  onError: (error: Error) => void,
): AuditRoute {
  return (action) => async (c, next) => {
    // A fork names its node in the body, which the handler reads: read a copy first.
    const forkedFrom = action === 'fork' ? await forkNode(c.req.raw) : undefined;
    await next();
    const event = await auditEvent(c, action, identify(c.req.raw), forkedFrom);
    await log
      .append(event)
      .catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
  };
}

async function auditEvent(
  c: Context,
  action: AuditAction,
  who: string,
  node: string | undefined,
): Promise<AuditEvent> {
  const status = c.res.status;
  const answer = AnswerBodySchema.safeParse(
    await c.res
      .clone()
      .json()
      .catch(() => ({})),
  );
  const body = answer.success ? answer.data : {};
  const ok = status < 400;
  return {
    who,
    action,
    ...definedFields({
      run_id: action === 'start' ? (ok ? body.id : undefined) : c.req.param('id'),
      new_run_id: action === 'fork' && ok ? body.id : undefined,
      question_id: action === 'answer' ? c.req.param('qid') : undefined,
      node,
      error_code: ok ? undefined : body.error?.code,
    }),
    outcome: ok ? 'ok' : 'refused',
    status,
  };
}

async function forkNode(request: Request): Promise<string | undefined> {
  const body = ForkBodySchema.safeParse(
    await request
      .clone()
      .json()
      .catch(() => ({})),
  );
  return body.success ? body.data.from_node : undefined;
}
