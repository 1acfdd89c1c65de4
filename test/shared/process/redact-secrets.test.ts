import { describe, expect, it } from 'vitest';
import { passedSecrets, redactSecrets } from '../../../src/shared/process/redact-secrets.js';

describe('passedSecrets and redactSecrets', () => {
  const env = { GH_TOKEN: 'ghp-abcdefgh', SHORT_TOKEN: 'abc', FEATURE: 'feature-flag-on', PATH: '/bin' };

  it.each([
    ['a secret let through', ['GH_TOKEN'], ['GH_TOKEN']],
    ['not one too short to be a credential', ['SHORT_TOKEN'], []],
    ['not a name that is no secret', ['FEATURE', 'PATH'], []],
    ['not a name that is unset', ['NPM_TOKEN'], []],
  ])('keeps %s', (_what, passthrough, names) => {
    expect([...passedSecrets(env, passthrough).keys()]).toEqual(names);
  });

  it('replaces every occurrence with the name it came from', () => {
    const secrets = passedSecrets(env, ['GH_TOKEN']);
    expect(redactSecrets('a ghp-abcdefgh b ghp-abcdefgh', secrets)).toBe(
      'a [redacted GH_TOKEN] b [redacted GH_TOKEN]',
    );
    expect(redactSecrets('nothing here', secrets)).toBe('nothing here');
  });
});
