import { describe, expect, it } from 'vitest';
import { signInHref, signInPathOf } from '../../src/web/api.js';
import { parseRoute } from '../../src/web/use-hash-route.js';

describe('parseRoute', () => {
  it.each([
    ['', { page: 'runs' }],
    ['#/', { page: 'runs' }],
    ['#/new', { page: 'new' }],
    ['#/runs/run-1', { page: 'run', id: 'run-1' }],
    // A notification's gate link (`runLink`): the run's page at that gate.
    ['#/runs/run-1?node=review', { page: 'run', id: 'run-1', node: 'review' }],
    ['#/runs/a%20b?node=the%20gate', { page: 'run', id: 'a b', node: 'the gate' }],
    ['#/runs/run-1?other=1', { page: 'run', id: 'run-1' }],
  ])('%s', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });
});

describe('the sign-in a 401 offers', () => {
  it.each([
    [{ error: { code: 'UNAUTHORIZED', message: 'm', sign_in: '/signin' } }, '/signin'],
    [{ error: { code: 'UNAUTHORIZED', message: 'm' } }, undefined],
    [{ error: { sign_in: '//evil.example/signin' } }, undefined],
    [{ error: { sign_in: 'https://evil.example/signin' } }, undefined],
    [{ error: { sign_in: 7 } }, undefined],
    [null, undefined],
    ['text', undefined],
  ])('%j names %s', (body, path) => {
    expect(signInPathOf(body)).toBe(path);
  });

  it('links to it with the page and its fragment to come back to', () => {
    const here = { pathname: '/', search: '', hash: '#/runs/run-1?node=review' };
    expect(signInHref('/signin', here)).toBe('/signin?return_to=%2F%23%2Fruns%2Frun-1%3Fnode%3Dreview');
  });
});
