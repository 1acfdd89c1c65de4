import { describe, expect, it } from 'vitest';
import {
  filterSecretEnv,
  isSecretEnvName,
  parseEnvPassthrough,
} from '../../../src/shared/process/filter-secret-env.js';

describe('filterSecretEnv', () => {
  it.each([
    ['OPENAI_API_KEY', true],
    ['ANTHROPIC_API_KEY', true],
    ['API_KEY', true],
    ['openai_api_key', true],
    ['CLIENT_SECRET', true],
    ['GITHUB_TOKEN', true],
    ['GH_TOKEN', true],
    ['NPM_TOKEN', true],
    ['DB_PASSWORD', true],
    ['AWS_ACCESS_KEY_ID', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['DATABASE_URL', true],
    ['REPLICA_DATABASE_URL', true],
    ['DOCKER_AUTH_CONFIG', true],
    ['SERVICE_CREDENTIAL', true],
    ['AZURE_CREDENTIALS', true],
    ['credential', true],
    ['PATH', false],
    ['HOME', false],
    ['TOKENIZER_PATH', false],
    ['AWS_REGION', false],
    ['KEYBOARD', false],
    ['SECRETARY', false],
  ])('%s is secret: %s', (name, secret) => {
    expect(isSecretEnvName(name)).toBe(secret);
  });

  it('drops secrets and keeps the rest', () => {
    expect(
      filterSecretEnv({ PATH: '/bin', OPENAI_API_KEY: 'k', GH_TOKEN: 't', HOME: '/h', UNSET: undefined }),
    ).toEqual({ PATH: '/bin', HOME: '/h' });
  });

  it('keeps the names listed in passthrough, exactly', () => {
    expect(filterSecretEnv({ GH_TOKEN: 't', NPM_TOKEN: 'n', gh_token: 'x' }, ['GH_TOKEN'])).toEqual({
      GH_TOKEN: 't',
    });
  });

  it.each([
    ['GH_TOKEN,NPM_TOKEN', ['GH_TOKEN', 'NPM_TOKEN']],
    [' GH_TOKEN , NPM_TOKEN ', ['GH_TOKEN', 'NPM_TOKEN']],
    ['GH_TOKEN NPM_TOKEN', ['GH_TOKEN', 'NPM_TOKEN']],
    ['', []],
    [undefined, []],
  ])('parseEnvPassthrough(%j)', (value, names) => {
    expect(parseEnvPassthrough(value)).toEqual(names);
  });
});
