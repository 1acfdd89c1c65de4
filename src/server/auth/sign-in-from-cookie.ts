import { createHash, timingSafeEqual } from 'node:crypto';
import type { SignInCookieReading, SignInInProgress } from './sign-in-cookie.js';
import { SignInFailed } from './sign-in-failed.js';

const minutes = (ms: number): number => Math.round(ms / 60_000);

/**
 * The sign-in a callback finishes: the one its browser's cookie vouches for, still in time, whose
 * `state` is the callback's. That equality is what binds the provider's answer to the browser that
 * started the sign-in, so no one can sign a victim in as themselves (login CSRF).
 */
export function signInFromCookie(
  reading: SignInCookieReading,
  callbackState: string,
  lifetimeMs: number,
): SignInInProgress {
  switch (reading.kind) {
    case 'missing':
      throw new SignInFailed(
        'SIGN_IN_COOKIE_MISSING',
        `this browser has no sign-in in progress: it was started in another browser, more than ${minutes(lifetimeMs)} minutes ago, or with cookies blocked.`,
      );
    case 'tampered':
      throw new SignInFailed(
        'SIGN_IN_COOKIE_TAMPERED',
        "this browser's sign-in cookie was altered, or made by a server with another OpenID client: it is not trusted.",
      );
    case 'expired':
      throw new SignInFailed(
        'SIGN_IN_EXPIRED',
        `the sign-in took longer than ${minutes(lifetimeMs)} minutes at the provider.`,
        reading.signIn.returnTo,
      );
    case 'valid':
      if (!sameText(reading.signIn.state, callbackState))
        throw new SignInFailed(
          'SIGN_IN_STATE_MISMATCH',
          "the provider's answer is not for the sign-in this browser started last (another tab started one since, or the link came from someone else).",
          reading.signIn.returnTo,
        );
      return reading.signIn;
  }
}

/** Equal, in time independent of where they differ. */
function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}
