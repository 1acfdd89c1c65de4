import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../api-error.js';
import type { RunRecord } from '../run-record.js';
import type { RunService } from '../run-service.js';
import { fourEyesRefusal } from './four-eyes.js';
import { requestPrincipal } from './principal.js';

/** Who started a run, as its record says (`started_by`, recorded per request by the server). */
export type RunStarter = (record: RunRecord) => string | undefined;

/**
 * The record's `started_by`; a run recorded before it existed names no starter, and a four-eyes gate
 * of that run refuses every answer, saying so (deny unless known).
 */
export const recordedStarter: RunStarter = (record) => record.started_by;

/**
 * On `POST /pipelines/:id/questions/:qid/answer`, after the auth guard: 403 saying why when the gate
 * needs a second person (`human.four_eyes`, or the server's `--four-eyes`) and the answerer started the
 * run or names no one. An unknown run or question passes on, for the route to answer 404 or 409.
 */
export function fourEyesGuard(
  manager: RunService,
  serverFourEyes: boolean,
  starter: RunStarter,
): MiddlewareHandler {
  return async (c, next) => {
    const principal = requestPrincipal(c.req.raw);
    const id = c.req.param('id');
    const question = id
      ? safely(() => manager.questions(id))?.find((q) => q.id === c.req.param('qid'))
      : undefined;
    if (c.req.method !== 'POST' || !principal || !id || !question) return next();
    const gate = safely(() => manager.graph(id))?.nodes.find((n) => n.id === question.stage);
    const refusal = fourEyesRefusal(
      { gateFourEyes: gate?.attrs['human.four_eyes'] === true, serverFourEyes },
      starter(manager.get(id)),
      principal,
    );
    if (refusal) throw new ApiError(403, 'FOUR_EYES', refusal);
    await next();
  };
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
