import type { AuditAction } from './audit-entry.js';

/** A route that changes state, and the name its requests have in the trail. */
interface AuditedRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly action: AuditAction;
}

/**
 * Every request that changes state, by route: the runs, a session opened (the provider's callback)
 * or closed, and a role granted or revoked. Matched before any guard, so a request the guards refuse is recorded too.
 */
export const AUDITED_ROUTES: readonly AuditedRoute[] = [
  { method: 'POST', path: '/pipelines', action: 'start' },
  { method: 'POST', path: '/pipelines/:id/questions/:qid/answer', action: 'answer' },
  { method: 'POST', path: '/pipelines/:id/cancel', action: 'cancel' },
  { method: 'POST', path: '/pipelines/:id/resume', action: 'resume' },
  { method: 'POST', path: '/pipelines/:id/fork', action: 'fork' },
  { method: 'GET', path: '/auth/callback', action: 'sign-in' },
  { method: 'POST', path: '/signout', action: 'sign-out' },
  { method: 'POST', path: '/roles/grant', action: 'role-grant' },
  { method: 'POST', path: '/roles/revoke', action: 'role-revoke' },
];

/** An audited request: its action and the route's parameters (`id`, `qid`) read from its path. */
export interface AuditedRequest {
  readonly action: AuditAction;
  readonly params: Readonly<Record<string, string>>;
}

const patterns = AUDITED_ROUTES.map((route) => ({
  route,
  regex: new RegExp(`^${route.path.replace(/:([A-Za-z]+)/g, '(?<$1>[^/]+)')}$`),
}));

/** The audited route a request is for (`HEAD` is not: it changes nothing), or `undefined`. */
export function auditedRequest(method: string, path: string): AuditedRequest | undefined {
  for (const { route, regex } of patterns) {
    const match = route.method === method ? regex.exec(path) : null;
    if (match) return { action: route.action, params: decoded(match.groups ?? {}) };
  }
  return undefined;
}

function decoded(groups: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(groups).map(([name, value]) => [name, decodeSegment(value)]));
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
