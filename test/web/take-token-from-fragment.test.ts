import { describe, expect, it } from 'vitest';
import { takeTokenFromFragment } from '../../src/web/api.js';

function tab(hash: string) {
  const where = { hash, pathname: '/', search: '?x=1' };
  const kept: string[] = [];
  const replaced: string[] = [];
  const signedIn = takeTokenFromFragment(
    where,
    {
      replaceState: (_data: unknown, _unused: string, url?: string | URL | null) =>
        replaced.push(String(url)),
    },
    { set: (value: string) => kept.push(value) },
  );
  return { signedIn, kept, replaced };
}

describe('takeTokenFromFragment', () => {
  it.each([
    ['#token=tok-7f3a', ['tok-7f3a']],
    ['#/runs/abc&token=a%20b', ['a b']],
  ])('%s: keeps the token and takes it out of the address bar', (hash, kept) => {
    expect(tab(hash)).toEqual({ signedIn: true, kept, replaced: ['/?x=1'] });
  });

  it('leaves any other fragment alone', () => {
    expect(tab('#/runs/abc')).toEqual({ signedIn: false, kept: [], replaced: [] });
  });
});
