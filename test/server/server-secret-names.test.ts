import { afterEach, describe, expect, it } from 'vitest';
import { isServerSecretName } from '../../src/server/server-secret-names.js';
import { filterSecretEnv, refusePassthrough } from '../../src/shared/process/filter-secret-env.js';
import { closeServers, testServer } from './server-fixtures.js';

afterEach(closeServers);

const pipeline = (graphAttrs: string, nodeAttrs: string) => `digraph p {
  graph [${graphAttrs}]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Work" ${nodeAttrs}]
  start -> work -> exit
}`;

describe('a submitted pipeline cannot pass the server’s own secrets through', () => {
  it.each([
    ['the provider key on the graph', 'env_passthrough="ANTHROPIC_API_KEY"', '', ['ANTHROPIC_API_KEY']],
    [
      'keys and base URLs on a node',
      '',
      ', env_passthrough="OPENAI_API_KEY GEMINI_API_KEY GOOGLE_API_KEY ANTHROPIC_BASE_URL"',
      ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'ANTHROPIC_BASE_URL'],
    ],
    [
      'the store and the token',
      'env_passthrough="DATABASE_URL,PGPASSWORD"',
      ', env_passthrough="ATTRACTOR_TOKEN"',
      ['DATABASE_URL', 'PGPASSWORD', 'ATTRACTOR_TOKEN'],
    ],
    ['a near miss in case', 'env_passthrough="anthropic_api_key"', '', ['anthropic_api_key']],
  ])('%s: 400 naming them', async (_what, graphAttrs, nodeAttrs, names) => {
    const server = await testServer();
    const refused = await server.json('POST', '/pipelines', {
      dot_source: pipeline(graphAttrs, nodeAttrs),
      dry_run: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('SECRET_NOT_ALLOWED');
    for (const name of names) expect(refused.body.error.message).toContain(name);
    expect((await server.json('GET', '/pipelines')).body.pipelines).toHaveLength(0);
  });

  it('a secret of the pipeline’s own (GH_TOKEN) is accepted', async () => {
    const server = await testServer();
    const created = await server.json('POST', '/pipelines', {
      dot_source: pipeline('env_passthrough="GH_TOKEN"', ''),
      dry_run: true,
    });
    expect(created.status).toBe(201);
  });
});

describe('refusePassthrough (serve and worker at start)', () => {
  afterEach(() => refusePassthrough(() => false));

  it('takes the server’s names from every command’s environment, named in env_passthrough or not', () => {
    const env = { PATH: '/bin', ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://x', GH_TOKEN: 't' };
    expect(filterSecretEnv(env, ['ANTHROPIC_API_KEY', 'GH_TOKEN'])).toEqual({
      PATH: '/bin',
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'http://x',
      GH_TOKEN: 't',
    });
    refusePassthrough(isServerSecretName);
    expect(filterSecretEnv(env, ['ANTHROPIC_API_KEY', 'GH_TOKEN'])).toEqual({ PATH: '/bin', GH_TOKEN: 't' });
  });
});
