import * as client from 'openid-client';
import { type Access, rolesFor, type SignedInPerson } from './access-file.js';
import { PendingSignIns } from './pending-sign-ins.js';
import type { Principal } from './principal.js';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** A sign-in that failed after it was started here: the person tries again from where they were. */
export class SignInFailed extends Error {
  readonly returnTo: string;

  constructor(message: string, returnTo: string) {
    super(message);
    this.name = 'SignInFailed';
    this.returnTo = returnTo;
  }
}

/** Who signed in (as a principal, and as the session keeps them), and where they were going when asked to. */
export interface FinishedSignIn {
  principal: Principal;
  person: SignedInPerson;
  returnTo: string;
}

const PENDING_MS = 10 * 60 * 1000;
/** Sign-ins in progress at once; past it the oldest is dropped (its person signs in again). */
const PENDING_CAPACITY = 4_096;

/**
 * Sign-in with OpenID Connect: the authorization code flow with PKCE through `openid-client`. The
 * issuer is discovered when first needed and again after a failure, so a provider that is down when
 * the server starts is used once it is up; until then `/signin` says what failed.
 */
export class OidcSignIn {
  readonly #settings: OidcSettings;
  readonly #access: Access;
  readonly #pending = new PendingSignIns({ ttlMs: PENDING_MS, capacity: PENDING_CAPACITY });
  #configuration: client.Configuration | undefined;

  get issuer(): string {
    return this.#settings.issuer;
  }

  constructor(settings: OidcSettings, access: Access | undefined) {
    this.#settings = settings;
    this.#access = access ?? { users: {}, groups: {} };
  }

  /**
   * Where to send the browser: the provider's authorization endpoint, with a fresh state and PKCE.
   * `returnTo` (already checked, `safeReturnPath`) is kept with the state until the provider sends the
   * browser back.
   */
  async start(callback: URL, returnTo: string): Promise<URL> {
    const config = await this.#discovered();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    this.#pending.add(state, { verifier, returnTo });
    return client.buildAuthorizationUrl(config, {
      redirect_uri: callback.href,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
  }

  /** The person the provider sent back (`currentUrl`: the callback with its code and state). */
  async finish(currentUrl: URL): Promise<FinishedSignIn> {
    const config = await this.#discovered();
    const state = currentUrl.searchParams.get('state') ?? '';
    const pending = this.#pending.take(state);
    if (!pending) throw new Error('the sign-in took too long or was not started here; sign in again.');
    try {
      const person = await this.#person(config, currentUrl, state, pending.verifier);
      const principal: Principal = {
        name: person.email ?? person.subject,
        kind: 'person',
        roles: rolesFor(this.#access, person),
        person,
      };
      return { principal, person, returnTo: pending.returnTo };
    } catch (error) {
      throw new SignInFailed(error instanceof Error ? error.message : String(error), pending.returnTo);
    }
  }

  async #person(
    config: client.Configuration,
    currentUrl: URL,
    state: string,
    verifier: string,
  ): Promise<SignedInPerson> {
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('the provider sent no ID token.');
    // Many providers put email and groups only in the UserInfo answer, not in the ID token.
    const claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
    const email = typeof claims['email'] === 'string' ? claims['email'] : undefined;
    const groups = Array.isArray(claims['groups'])
      ? claims['groups'].filter((g) => typeof g === 'string')
      : [];
    return { subject: claims.sub, email, groups };
  }

  async #discovered(): Promise<client.Configuration> {
    if (this.#configuration) return this.#configuration;
    const issuer = new URL(this.#settings.issuer);
    // Plain http only to a provider on this machine (a test's, a developer's); anything else needs https.
    const loopback =
      issuer.protocol === 'http:' && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(issuer.hostname);
    this.#configuration = await client.discovery(
      issuer,
      this.#settings.clientId,
      undefined,
      client.ClientSecretPost(this.#settings.clientSecret),
      loopback ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    return this.#configuration;
  }
}
