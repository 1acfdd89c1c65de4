import { ANONYMOUS_IDENTITY, type Identity, TOKEN_IDENTITY } from '../shared/identity.js';
import type { ServerOptions } from './server-options.js';

/** Who sent a request that changes a run: what its answer, cancel, resume, fork or start records. */
export type IdentifyRequest = (request: Request) => Identity;

/**
 * The one place a request's identity is decided (decision 0410). With the single `--token`, every
 * request that got past the token guard carried it: `token`; without one, `anonymous`. Named tokens or
 * a signed-in person (the teams issue) resolve here to their name, and nothing downstream changes.
 */
export function identifyRequests(options: Pick<ServerOptions, 'token'>): IdentifyRequest {
  const identity = options.token === undefined ? ANONYMOUS_IDENTITY : TOKEN_IDENTITY;
  return () => identity;
}
