import { ServerResponse } from 'node:http';
import type { Hono } from 'hono';
import { definedFields } from '../../shared/defined-fields.js';
import type { QuestionJson } from '../../shared/server-responses.js';
import { noteForAudit } from '../audit/audit-notes.js';
import { requestAccessCheck } from '../auth/access-check.js';
import { jsonBody } from '../json-body.js';
import { pageRuns } from '../page-runs.js';
import { readDotPath } from '../read-dot-path.js';
import { identifyRequests } from '../request-identity.js';
import type { RunService } from '../run-service.js';
import { runView } from '../run-view.js';
import type { ServerOptions } from '../server-options.js';
import { INLINE_SOURCE } from '../server-read-scope.js';
import { sseResponse } from '../sse-response.js';
import { checkSubmissionSize } from '../submission-limits.js';
import {
  AnswerRequestSchema,
  ForkRequestSchema,
  ListQuerySchema,
  SubmitRequestSchema,
} from '../submit-request.js';

/**
 * Runs: submit, list, status, events (SSE), questions and answers, cancel, resume, fork. The routes that
 * change state are audited around the guards (`AUDITED_ROUTES`); a fork notes its node for that.
 */
export function registerPipelineRoutes(app: Hono, manager: RunService, options: ServerOptions): void {
  const identify = identifyRequests(options);
  const view = (id: string) => {
    const record = manager.get(id);
    return runView(record, manager.viewFacts(record));
  };

  app.post('/pipelines', async (c) => {
    const body = SubmitRequestSchema.parse(await jsonBody(c.req.raw));
    let source: string;
    let sourceFile = INLINE_SOURCE;
    if (body.dot_path !== undefined) {
      const read = readDotPath(body.dot_path, options.allowDirs);
      sourceFile = read.file;
      source = read.text;
    } else {
      source = body.dot_source as string;
    }
    checkSubmissionSize(source);
    const record = manager.submit({
      source,
      sourceFile,
      startedBy: identify(c.req.raw),
      options: {
        dry_run: body.dry_run ?? false,
        auto_approve: body.auto_approve ?? false,
        ...definedFields({
          goal: body.goal,
          model: body.model,
          max_cost_usd: body.max_cost_usd,
          vars: body.vars,
          working_dir: body.working_dir,
        }),
        ...(body.scenario !== undefined
          ? { scenario: typeof body.scenario === 'string' ? body.scenario : JSON.stringify(body.scenario) }
          : {}),
      },
    });
    // The store writes behind (both do): it has the run before 201 says it was accepted.
    await manager.persisted(record.id);
    return c.json(view(record.id), 201);
  });

  app.get('/pipelines', async (c) => {
    const query = ListQuerySchema.parse(c.req.query());
    const paging = {
      ...(query.limit ? { limit: query.limit } : {}),
      ...(query.cursor ? { cursor: query.cursor } : {}),
    };
    // On the file store `waiting` is derived (a running run with an open question), so `running` and
    // `waiting` both read the running runs, at most --max-concurrent-runs of them, and split them on one
    // page; a PostgreSQL worker's run released at a gate is stored as `waiting` and joins them.
    const { status } = query;
    const derived = status === 'running' || status === 'waiting';
    const page = derived
      ? pageRuns(
          [
            ...manager.list({ status: 'running', limit: 500 }).runs,
            ...(status === 'waiting' ? manager.list({ status: 'waiting', limit: 500 }).runs : []),
          ],
          { limit: 500 },
        )
      : manager.list({ ...definedFields({ status }), ...paging });
    await Promise.all(page.runs.map((r) => manager.catchUp(r.id)));
    const views = page.runs
      .map((r) => runView(r, manager.viewFacts(r)))
      .filter((v) => !derived || v['status'] === status);
    return c.json({
      pipelines: views,
      ...(page.next_cursor && !derived ? { next_cursor: page.next_cursor } : {}),
    });
  });

  app.get('/pipelines/:id', async (c) => {
    await manager.catchUp(c.req.param('id'));
    return c.json(view(c.req.param('id')));
  });

  app.get('/pipelines/:id/events', (c) => {
    const hub = manager.hub(c.req.param('id'));
    const lastId = Number(c.req.header('last-event-id') ?? c.req.query('last_event_id') ?? 0);
    return sseResponse(hub, {
      afterId: Number.isInteger(lastId) && lastId > 0 ? lastId : 0,
      heartbeatMs: options.heartbeatMs,
      maxQueuedBytes: options.sseMaxQueuedBytes,
      dropGraceMs: options.sseDropGraceMs,
      signal: c.req.raw.signal,
      stillAllowed: requestAccessCheck(c.req.raw),
      ...socketOf(c.env),
    });
  });

  app.get('/pipelines/:id/questions', async (c) => {
    // A question a client has seen survives a crash of this server: its record is on disk first.
    await manager.persisted(c.req.param('id'));
    return c.json(
      manager.questions(c.req.param('id')).map(
        (q): QuestionJson => ({
          id: q.id,
          text: q.text,
          type: q.type,
          options: q.options.map((o) => ({ key: o.key, label: o.label })),
          // Free text is an answer only where the gate takes it (`human.freeform`), following this option.
          accepts_text: q.type === 'freeform' || q.text_option !== undefined,
          ...definedFields({ text_option: q.text_option }),
          stage: q.stage,
          ...definedFields({ timeout_seconds: q.timeout_seconds }),
        }),
      ),
    );
  });

  app.post('/pipelines/:id/questions/:qid/answer', async (c) => {
    const { answer } = AnswerRequestSchema.parse(await jsonBody(c.req.raw));
    await manager.answer(c.req.param('id'), c.req.param('qid'), answer, identify(c.req.raw));
    await manager.persisted(c.req.param('id'));
    return c.json({ id: c.req.param('qid'), status: 'answered' });
  });

  app.post('/pipelines/:id/cancel', async (c) => {
    const id = c.req.param('id');
    await manager.cancel(id, identify(c.req.raw));
    return c.json({ id, status: manager.get(id).status });
  });

  app.post('/pipelines/:id/fork', async (c) => {
    const body = ForkRequestSchema.parse(await jsonBody(c.req.raw));
    noteForAudit(c.req.raw, definedFields({ node: body.from_node }));
    const record = await manager.fork(c.req.param('id'), body.from_node, body.set ?? {}, identify(c.req.raw));
    return c.json({ id: record.id }, 201);
  });

  app.post('/pipelines/:id/resume', async (c) => {
    const record = await manager.resume(c.req.param('id'), identify(c.req.raw));
    return c.json(view(record.id), 202);
  });
}

/** On Node (`@hono/node-server`), a way to cut the request's connection: destroying its response. */
function socketOf(env: unknown): { disconnect?: () => void } {
  if (typeof env !== 'object' || env === null || !('outgoing' in env)) return {};
  const { outgoing } = env;
  if (!(outgoing instanceof ServerResponse)) return {};
  return { disconnect: () => outgoing.destroy() };
}
