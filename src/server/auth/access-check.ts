/**
 * Whether a request's caller may still do what the auth guard let them do when it arrived: asked again
 * by what outlives the request's start (an event stream), so a revoked role, token or session ends it.
 */
export type AccessCheck = () => Promise<boolean>;

const checks = new WeakMap<Request, AccessCheck>();

/** Kept by the auth guard for the rest of the request, beside its principal. */
export function rememberAccessCheck(request: Request, check: AccessCheck): void {
  checks.set(request, check);
}

/** The request's check; `undefined` on the public paths, which nobody needs to be allowed. */
export function requestAccessCheck(request: Request): AccessCheck | undefined {
  return checks.get(request);
}
