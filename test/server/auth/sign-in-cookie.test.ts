import { describe, expect, it } from 'vitest';
import {
  clearedSignInCookie,
  SIGN_IN_LIFETIME_MS,
  SignInCookie,
  type SignInInProgress,
} from '../../../src/server/auth/sign-in-cookie.js';

const CLIENT = {
  clientSecret: 'a-client-secret',
  issuer: 'https://login.example.com',
  clientId: 'attractor',
};
const codec = new SignInCookie(CLIENT);
const NOW = 1_800_000_000_000;
const SIGN_IN: SignInInProgress = {
  state: 'x8Q1m3E0l3k7pRcb4cV2bq3cTuvJm0kbNnS1YxM9aHQ',
  verifier: 'nV0r4oN2q7FJ8Gq8v1ZP0bVZ6Wc8wP0hU2cYq9wLxkA',
  returnTo: '/#/runs/r1?node=review',
  expiresAt: NOW + SIGN_IN_LIFETIME_MS,
};
const sealed = codec.seal(SIGN_IN);

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Every character of `text` changed, one at a time, by its lowest bit: a base64url decoder that ignores
 * a last character's spare bits would read some of these as the original.
 */
function everyOneCharacterChange(text: string): string[] {
  return [...text].map((c, at) => {
    const index = BASE64URL.indexOf(c);
    const other = index < 0 ? 'A' : BASE64URL[index ^ 1];
    return `${text.slice(0, at)}${other}${text.slice(at + 1)}`;
  });
}

describe('SignInCookie', () => {
  it('gives back what it sealed, until it expires', () => {
    expect(codec.read(sealed, NOW)).toEqual({ kind: 'valid', signIn: SIGN_IN });
    expect(codec.read(sealed, SIGN_IN.expiresAt - 1).kind).toBe('valid');
    expect(codec.read(sealed, SIGN_IN.expiresAt)).toEqual({ kind: 'expired', signIn: SIGN_IN });
    expect(new SignInCookie({ ...CLIENT }).read(sealed, NOW).kind).toBe('valid');
  });

  it.each([
    ['no cookie', 'missing', undefined],
    ['an empty cookie', 'missing', ''],
    ['another version', 'tampered', sealed.replace(/^v1\./, 'v2.')],
    ['its MAC cut short', 'tampered', sealed.slice(0, -1)],
    ['a character added to its MAC', 'tampered', `${sealed}A`],
    ['its MAC left off', 'tampered', sealed.slice(0, sealed.lastIndexOf('.'))],
    ['an extra part', 'tampered', `${sealed}.AAAA`],
    ['its MAC padded', 'tampered', `${sealed}=`],
    ['nonsense', 'tampered', 'not-a-cookie'],
  ])('reads %s as %s', (_name, kind, value) => {
    expect(codec.read(value, NOW)).toEqual({ kind });
  });

  it('refuses every one-character change, in the version, payload, separators and MAC', () => {
    const changed = everyOneCharacterChange(sealed);
    expect(changed.length).toBeGreaterThan(150);
    for (const value of changed) expect(codec.read(value, NOW), value).toEqual({ kind: 'tampered' });
  });

  it.each([
    ['another client secret', { ...CLIENT, clientSecret: 'another-secret' }],
    ['another issuer', { ...CLIENT, issuer: 'https://login.other.example' }],
    ['another client id', { ...CLIENT, clientId: 'someone-else' }],
  ])('refuses a cookie sealed for %s', (_name, other) => {
    expect(new SignInCookie(other).read(sealed, NOW)).toEqual({ kind: 'tampered' });
    expect(codec.read(new SignInCookie(other).seal(SIGN_IN), NOW)).toEqual({ kind: 'tampered' });
  });

  it.each([
    ['a return path off the server', { returnTo: '//evil.example/' }],
    ['a verifier shorter than RFC 7636 allows', { verifier: 'short' }],
    ['an empty state', { state: '' }],
  ])('refuses %s even under its own MAC', (_name, change) => {
    expect(codec.read(codec.seal({ ...SIGN_IN, ...change }), NOW)).toEqual({ kind: 'tampered' });
  });

  it('is a cookie only the callback receives, for ten minutes; clearing it names the same path', () => {
    expect(codec.header(SIGN_IN)).toBe(
      `attractor_signin=${sealed}; Path=/auth/callback; HttpOnly; Secure; SameSite=Lax; Max-Age=600`,
    );
    expect(clearedSignInCookie).toBe(
      'attractor_signin=; Path=/auth/callback; HttpOnly; Secure; SameSite=Lax; Max-Age=0',
    );
  });

  it('fits in a browser cookie with the longest return path allowed', () => {
    const header = codec.header({ ...SIGN_IN, returnTo: `/${'a'.repeat(2047)}` });
    expect(header.length).toBeLessThan(4096);
  });
});
