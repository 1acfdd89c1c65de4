import { PUBLIC_WEB_PATHS } from '../routes/web-assets.js';
import type { Role } from './role.js';

/**
 * What a route needs: `public` (no sign-in: the page shell, the sign-in page, `/healthz`),
 * `signed-in` (anyone the server knows, whatever their roles), or a role (`grants`).
 */
export type RouteNeed = 'public' | 'signed-in' | Role;

export interface RouteRule {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly need: RouteNeed;
}

/**
 * Every route of the server and what it needs: the one place access is decided (decision 0500). A
 * route registered without a rule here stops the server from starting (`checkRouteRules`), and the
 * authorization matrix test walks the server's own route table against this one.
 */
export const ROUTE_RULES: readonly RouteRule[] = [
  { method: 'GET', path: '/healthz', need: 'public' },
  ...PUBLIC_WEB_PATHS.map((path) => ({ method: 'GET' as const, path, need: 'public' as const })),
  { method: 'GET', path: '/signin', need: 'public' },
  { method: 'GET', path: '/auth/callback', need: 'public' },
  { method: 'POST', path: '/signout', need: 'signed-in' },
  { method: 'GET', path: '/server-info', need: 'viewer' },
  { method: 'GET', path: '/whoami', need: 'signed-in' },
  { method: 'GET', path: '/pipelines', need: 'viewer' },
  { method: 'GET', path: '/pipelines/:id', need: 'viewer' },
  { method: 'GET', path: '/pipelines/:id/events', need: 'viewer' },
  { method: 'GET', path: '/pipelines/:id/questions', need: 'viewer' },
  { method: 'GET', path: '/pipelines/:id/checkpoint', need: 'viewer' },
  { method: 'GET', path: '/pipelines/:id/context', need: 'viewer' },
  { method: 'GET', path: '/pipelines/:id/nodes/:node', need: 'viewer' },
  { method: 'GET', path: '/pipelines/:id/graph', need: 'viewer' },
  { method: 'GET', path: '/pipeline-files', need: 'operator' },
  // Compiles a source to show its graph before it is started: nothing changes, but it reads files.
  { method: 'POST', path: '/describe', need: 'operator' },
  { method: 'POST', path: '/pipelines', need: 'operator' },
  { method: 'POST', path: '/pipelines/:id/cancel', need: 'operator' },
  { method: 'POST', path: '/pipelines/:id/resume', need: 'operator' },
  { method: 'POST', path: '/pipelines/:id/fork', need: 'operator' },
  { method: 'POST', path: '/pipelines/:id/questions/:qid/answer', need: 'approver' },
  { method: 'GET', path: '/tokens', need: 'admin' },
  { method: 'GET', path: '/roles', need: 'admin' },
  { method: 'POST', path: '/roles/grant', need: 'admin' },
  { method: 'POST', path: '/roles/revoke', need: 'admin' },
];

const patterns = ROUTE_RULES.map((rule) => ({
  rule,
  regex: new RegExp(`^${rule.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}$`),
}));

/** The rule for a request (`HEAD` is a `GET`), or `undefined` for a path no route serves. */
export function ruleFor(method: string, path: string): RouteRule | undefined {
  const asked = method === 'HEAD' ? 'GET' : method;
  return patterns.find((p) => p.rule.method === asked && p.regex.test(path))?.rule;
}

/** The server's routes that have no rule: it must not start with one (deny unless granted, made visible). */
export function routesWithoutRule(routes: readonly { method: string; path: string }[]): string[] {
  return routes
    .filter((r) => r.method !== 'ALL')
    .filter((r) => !ROUTE_RULES.some((rule) => rule.method === r.method && rule.path === r.path))
    .map((r) => `${r.method} ${r.path}`);
}
