import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { ReturnPathSchema } from './return-path.js';

export const SIGN_IN_COOKIE = 'attractor_signin';
/** How long a sign-in may take at the provider. */
export const SIGN_IN_LIFETIME_MS = 10 * 60 * 1000;
const VERSION = 'v1';
const KEY_LABEL = 'attractor sign-in cookie v1';
const ATTRIBUTES = 'Path=/auth/callback; HttpOnly; Secure; SameSite=Lax';

/** A sign-in in progress, as its browser keeps it until the provider sends it back. */
export interface SignInInProgress {
  readonly state: string;
  readonly verifier: string;
  /** Where the person was when asked to sign in (`safeReturnPath`). */
  readonly returnTo: string;
  /** Epoch milliseconds after which it no longer counts. */
  readonly expiresAt: number;
}

/** What a callback's cookie comes to; a `tampered` one tells nothing, not even where it was going. */
export type SignInCookieReading =
  | { readonly kind: 'valid' | 'expired'; readonly signIn: SignInInProgress }
  | { readonly kind: 'missing' | 'tampered' };

/** What every server of a deployment shares already: the client it signs in as. */
export interface SignInCookieKeyMaterial {
  readonly clientSecret: string;
  readonly issuer: string;
  readonly clientId: string;
}

const PayloadSchema = z
  .object({
    state: z.string().regex(/^[\w-]{16,128}$/),
    // RFC 7636: 43 to 128 unreserved characters.
    verifier: z.string().regex(/^[\w.~-]{43,128}$/),
    return_to: ReturnPathSchema,
    expires_at: z.number().int().nonnegative(),
  })
  .strict();

/**
 * The sign-in in progress kept in the browser rather than on a server, so any server of the deployment
 * (or this one after a restart) can finish it: `v1.<payload>.<HMAC-SHA256>`, base64url. Authenticated,
 * not encrypted: the browser already holds everything in it (see decision 0500). The key is derived
 * with HKDF from the OIDC client secret, bound to the issuer and client id, so no new setting is needed.
 */
export class SignInCookie {
  readonly #key: Buffer;

  constructor({ clientSecret, issuer, clientId }: SignInCookieKeyMaterial) {
    const info = `${KEY_LABEL}\0${issuer}\0${clientId}`;
    this.#key = Buffer.from(hkdfSync('sha256', clientSecret, '', info, 32));
  }

  /** The `Set-Cookie` header that keeps `signIn` in the browser for its lifetime. */
  header(signIn: SignInInProgress): string {
    return `${SIGN_IN_COOKIE}=${this.seal(signIn)}; ${ATTRIBUTES}; Max-Age=${SIGN_IN_LIFETIME_MS / 1000}`;
  }

  seal({ state, verifier, returnTo, expiresAt }: SignInInProgress): string {
    const payload = { state, verifier, return_to: returnTo, expires_at: expiresAt };
    const signed = `${VERSION}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${signed}.${this.#mac(signed)}`;
  }

  read(value: string | undefined, now: number): SignInCookieReading {
    if (value === undefined || value === '') return { kind: 'missing' };
    const [version, payload, mac, ...rest] = value.split('.');
    if (version !== VERSION || payload === undefined || mac === undefined || rest.length > 0)
      return { kind: 'tampered' };
    // Compared as text: base64url decoding ignores stray characters and a last character's spare bits.
    const expected = Buffer.from(this.#mac(`${version}.${payload}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { kind: 'tampered' };
    const parsed = PayloadSchema.safeParse(jsonOrUndefined(Buffer.from(payload, 'base64url').toString()));
    if (!parsed.success) return { kind: 'tampered' };
    const { state, verifier, return_to, expires_at } = parsed.data;
    const signIn = { state, verifier, returnTo: return_to, expiresAt: expires_at };
    return { kind: expires_at <= now ? 'expired' : 'valid', signIn };
  }

  #mac(signed: string): string {
    return createHmac('sha256', this.#key).update(signed).digest('base64url');
  }
}

/** Ends the sign-in in the browser: sent with every callback's answer, whatever it was. */
export const clearedSignInCookie = `${SIGN_IN_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
