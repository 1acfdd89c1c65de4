import { describe, expect, it } from 'vitest';
import type { SignInCookieReading } from '../../../src/server/auth/sign-in-cookie.js';
import { SignInFailed } from '../../../src/server/auth/sign-in-failed.js';
import { signInFromCookie } from '../../../src/server/auth/sign-in-from-cookie.js';

const SIGN_IN = {
  state: 'the-state-0123456789',
  verifier: 'v'.repeat(43),
  returnTo: '/#/runs/r1',
  expiresAt: 0,
};
const TEN_MINUTES = 600_000;

describe('signInFromCookie', () => {
  it('gives the sign-in whose state is the callback’s', () => {
    expect(signInFromCookie({ kind: 'valid', signIn: SIGN_IN }, SIGN_IN.state, TEN_MINUTES)).toBe(SIGN_IN);
  });

  it.each<[string, SignInCookieReading, string, string, RegExp]>([
    ['missing', { kind: 'missing' }, 'SIGN_IN_COOKIE_MISSING', '/', /more than 10 minutes ago/],
    ['tampered', { kind: 'tampered' }, 'SIGN_IN_COOKIE_TAMPERED', '/', /altered/],
    [
      'expired',
      { kind: 'expired', signIn: SIGN_IN },
      'SIGN_IN_EXPIRED',
      '/#/runs/r1',
      /longer than 10 minutes/,
    ],
    [
      'for another state',
      { kind: 'valid', signIn: { ...SIGN_IN, state: 'another-state-0123456' } },
      'SIGN_IN_STATE_MISMATCH',
      '/#/runs/r1',
      /not for the sign-in this browser started last/,
    ],
  ])(
    'refuses a cookie %s, keeping the return path only when it vouches for it',
    (_n, reading, code, back, why) => {
      let thrown: unknown;
      try {
        signInFromCookie(reading, SIGN_IN.state, TEN_MINUTES);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SignInFailed);
      expect(thrown).toMatchObject({ code, returnTo: back, message: expect.stringMatching(why) });
    },
  );
});
