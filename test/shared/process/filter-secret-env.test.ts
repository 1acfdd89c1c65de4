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
    ['GEMINI_API_KEY', true],
    ['GOOGLE_API_KEY', true],
    ['API_KEY', true],
    ['openai_api_key', true],
    ['MAPS_APIKEY', true],
    ['CLIENT_SECRET', true],
    ['STRIPE_SECRET_KEY', true],
    ['SECRET_KEY_BASE', true],
    ['SECRETARY', true],
    ['GITHUB_TOKEN', true],
    ['GH_TOKEN', true],
    ['NPM_TOKEN', true],
    ['ATTRACTOR_TOKEN', true],
    ['TOKEN_FILE', true],
    ['DB_PASSWORD', true],
    ['PASSWORD_FILE', true],
    ['MYSQL_PASSWD', true],
    ['GPG_PASSPHRASE', true],
    ['PRIVATE_KEY', true],
    ['SSH_PRIVATE_KEY_PATH', true],
    ['SIGNING_KEY', true],
    ['NPM_CONFIG__AUTH', true],
    ['BASIC_AUTH_HEADER', true],
    ['PGPASSWORD', true],
    ['PGHOST', true],
    ['PGSERVICEFILE', true],
    ['DATABASE_URL', true],
    ['REPLICA_DATABASE_URL', true],
    ['DOCKER_AUTH_CONFIG', true],
    ['SERVICE_CREDENTIAL', true],
    ['AZURE_CREDENTIALS', true],
    ['credential', true],
    ['AWS_ACCESS_KEY_ID', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['AWS_SESSION_TOKEN', true],
    ['AWS_PROFILE', true],
    ['AWS_REGION', true],
    ['AZURE_CLIENT_ID', true],
    ['ARM_CLIENT_SECRET', true],
    ['GOOGLE_APPLICATION_CREDENTIALS', true],
    ['GOOGLE_CLOUD_PROJECT', true],
    ['GCP_SERVICE_ACCOUNT', true],
    ['CLOUDSDK_CONFIG', true],
    ['PATH', false],
    ['HOME', false],
    ['PWD', false],
    ['LANG', false],
    ['TERM', false],
    ['NODE_ENV', false],
    ['KEYBOARD', false],
    ['MONKEY_PATH', false],
    ['AUTHOR_NAME', false],
    ['ANTHROPIC_BASE_URL', false],
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
