import * as client from 'openid-client';
import { type Access, rolesFor, type SignedInPerson } from './access-file.js';
import { cookieValue } from './cookie-value.js';
import type { Principal } from './principal.js';
import { SIGN_IN_COOKIE, SIGN_IN_LIFETIME_MS, SignInCookie } from './sign-in-cookie.js';
import { SignInFailed } from './sign-in-failed.js';
import { signInFromCookie } from './sign-in-from-cookie.js';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Who signed in (as a principal, and as the session keeps them), and where they were going when asked to. */
export interface FinishedSignIn {
  principal: Principal;
  person: SignedInPerson;
  returnTo: string;
}

/** Where to send the browser to sign in, and the cookie that keeps the sign-in until it comes back. */
export interface StartedSignIn {
  provider: URL;
  /** A `Set-Cookie` header (`SignInCookie`). */
  cookie: string;
}

/**
 * Sign-in with OpenID Connect: the authorization code flow with PKCE through `openid-client`. The
 * issuer is discovered when first needed and again after a failure, so a provider that is down when
 * the server starts is used once it is up; until then `/signin` says what failed.
 */
export class OidcSignIn {
  readonly #settings: OidcSettings;
  readonly #access: Access;
  readonly #cookie: SignInCookie;
  #configuration: client.Configuration | undefined;

  get issuer(): string {
    return this.#settings.issuer;
  }

  constructor(settings: OidcSettings, access: Access | undefined) {
    this.#settings = settings;
    this.#access = access ?? { users: {}, groups: {} };
    this.#cookie = new SignInCookie(settings);
  }

  /**
   * Where to send the browser: the provider's authorization endpoint, with a fresh state and PKCE,
   * kept with `returnTo` (already checked, `safeReturnPath`) in the browser's sign-in cookie, so any
   * server of the deployment can finish the sign-in.
   */
  async start(callback: URL, returnTo: string, now = Date.now()): Promise<StartedSignIn> {
    const config = await this.#discovered();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const provider = client.buildAuthorizationUrl(config, {
      redirect_uri: callback.href,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const cookie = this.#cookie.header({ state, verifier, returnTo, expiresAt: now + SIGN_IN_LIFETIME_MS });
    return { provider, cookie };
  }

  /**
   * The person the provider sent back (`callback`: the request to the callback, with its code, state
   * and the sign-in cookie). Throws `SignInFailed`, saying why and where to try again from.
   */
  async finish(callback: Request, now = Date.now()): Promise<FinishedSignIn> {
    const currentUrl = new URL(callback.url);
    const reading = this.#cookie.read(cookieValue(callback.headers.get('cookie'), SIGN_IN_COOKIE), now);
    const state = currentUrl.searchParams.get('state') ?? '';
    const pending = signInFromCookie(reading, state, SIGN_IN_LIFETIME_MS);
    try {
      const config = await this.#discovered();
      const person = await this.#person(config, currentUrl, state, pending.verifier);
      const principal: Principal = {
        name: person.email ?? person.subject,
        kind: 'person',
        roles: rolesFor(this.#access, person),
        person,
      };
      return { principal, person, returnTo: pending.returnTo };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new SignInFailed('SIGN_IN_FAILED', message, pending.returnTo, { cause: error });
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
    const userInfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
    const claims = { ...userInfo, ...idToken };
    const email = verifiedEmail(typeof idToken['email'] === 'string' ? idToken : userInfo);
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

/**
 * The email of a person only when the provider vouches for it (`email_verified`, from the same claims as
 * the email): on many providers people set their own address, and roles and names go by email, so an
 * unverified one would let anyone be anyone. Without it, a person is their subject.
 */
function verifiedEmail(claims: Readonly<Record<string, unknown>>): string | undefined {
  const verified = claims['email_verified'] === true || claims['email_verified'] === 'true';
  return verified && typeof claims['email'] === 'string' ? claims['email'] : undefined;
}
