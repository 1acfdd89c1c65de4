/**
 * The authorization matrix, generated from the server's own route table: every route × every role
 * (and no credentials) × {file store, PostgreSQL}. A route is answered (anything but 401/403) exactly
 * when `ROUTE_RULES` grants it, so a route added without a rule, or a rule that grants too much or too
 * little, fails here.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../../../src/server/auth/api-token.js';
import { openTokenStore } from '../../../src/server/auth/open-token-store.js';
import type { Role } from '../../../src/server/auth/role.js';
import { ROLES } from '../../../src/server/auth/role-names.js';
import { ROUTE_RULES, ruleFor } from '../../../src/server/auth/route-rules.js';
import { ensureDist } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { closeServers, testServer } from '../server-fixtures.js';

afterEach(closeServers);

const withPostgres = PG_AVAILABLE || PG_REQUIRED;
const cluster = withPostgres ? postgresClusterForFile(120_000) : undefined;

const STORES = [
  { name: 'file store', store: async (): Promise<string | undefined> => undefined },
  ...(withPostgres ? [{ name: 'PostgreSQL', store: async () => cluster?.createDatabase('matrix') }] : []),
];

/** Who asks: each role's token, or nothing at all. */
const CALLERS: readonly (Role | 'nobody')[] = [...ROLES, 'nobody'];

/**
 * The policy, stated apart from ROUTE_RULES so that a wrong rule fails: reading runs is for viewers,
 * changing them for operators, answering gates for approvers, tokens and roles for admins. Routes not named here
 * follow the default: a GET of run data needs viewer, a POST operator.
 */
const POLICY: Record<string, string> = {
  'GET /healthz': 'public',
  'GET /': 'public',
  'GET /favicon.svg': 'public',
  'GET /whoami': 'signed-in',
  'GET /signin': 'public',
  'GET /auth/callback': 'public',
  'POST /signout': 'signed-in',
  'GET /pipeline-files': 'operator',
  'POST /pipelines/:id/questions/:qid/answer': 'approver',
  'GET /tokens': 'admin',
  'GET /roles': 'admin',
  'POST /roles/grant': 'admin',
  'POST /roles/revoke': 'admin',
};
const isWebAsset = (path: string): boolean => path.startsWith('/web/');

function policyFor(method: string, path: string): string {
  const named = POLICY[`${method} ${path}`];
  if (named) return named;
  if (method === 'GET' && isWebAsset(path)) return 'public';
  return method === 'GET' ? 'viewer' : 'operator';
}

/** What a caller may expect of what a route needs. */
function expected(need: string, caller: Role | 'nobody'): 'answered' | 401 | 403 {
  if (need === 'public') return 'answered';
  if (caller === 'nobody') return 401;
  if (need === 'signed-in' || need === 'viewer' || caller === 'admin' || caller === need) return 'answered';
  return 403;
}

describe.each(STORES)('authorization matrix, $name', ({ store }) => {
  beforeAll(() => ensureDist(), 180_000);

  it('every route × every role is answered exactly when its rule grants it', async () => {
    const url = await store();
    const server = await testServer(url ? { store: url } : {});
    const tokens = await openTokenStore({ dataDir: server.dataDir, ...(url ? { store: url } : {}) });
    for (const role of ROLES) {
      await tokens.create({
        name: `as-${role}`,
        role,
        hash: tokenHash(`attr_${role}`),
        created_at: new Date().toISOString(),
      });
    }
    await tokens.close();
    expect(server.routes.length).toBeGreaterThan(15);
    const seen: string[] = [];
    for (const route of server.routes) {
      const rule = ruleFor(route.method, route.path.replace(/:[A-Za-z]+/g, 'x'));
      expect(rule, `${route.method} ${route.path} has no rule in ROUTE_RULES`).toBeDefined();
      if (!rule) continue;
      seen.push(`${rule.method} ${rule.path}`);
      const path = route.path.replace(/:[A-Za-z]+/g, 'nonexistent');
      for (const caller of CALLERS) {
        const response = await fetch(`${server.url}${path}`, {
          method: route.method,
          headers: {
            'content-type': 'application/json',
            ...(caller === 'nobody' ? {} : { authorization: `Bearer attr_${caller}` }),
          },
          ...(route.method === 'POST' ? { body: '{}' } : {}),
        });
        await response.body?.cancel();
        const want = expected(policyFor(route.method, route.path), caller);
        const got = response.status === 401 || response.status === 403 ? response.status : 'answered';
        expect(
          got,
          `${route.method} ${route.path} as ${caller} (rule: ${rule.need}): ${response.status}`,
        ).toBe(want);
      }
    }
    // No rule is left over for a route that is gone: the table says what the server serves.
    expect(new Set(seen)).toEqual(new Set(ROUTE_RULES.map((r) => `${r.method} ${r.path}`)));
  }, 120_000);
});
