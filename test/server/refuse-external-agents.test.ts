import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../helpers/fake-anthropic-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from './server-fixtures.js';

afterEach(closeServers);

const WITH_AGENT = `digraph acp {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  plan [prompt="Plan", llm_model="claude-sonnet-4-6"]
  code [prompt="Code", agent="claude-code"]
  start -> plan -> code -> exit
}`;

describe('a submission naming an external agent (agent=)', () => {
  it('is refused for a real run, naming the node, before anything runs on the server key', async () => {
    const fake = await startFakeAnthropicServer();
    try {
      const server = await testServer(
        {},
        {
          realRuns: {
            workingDir: tempDir(),
            env: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: fake.origin },
          },
        },
      );
      fake.enqueue(
        anthropicStreamReply({ content: [{ type: 'text', text: 'done' }] }),
        anthropicStreamReply({ content: [{ type: 'text', text: 'done' }] }),
      );
      const { status, body } = await server.json('POST', '/pipelines', { dot_source: WITH_AGENT });
      expect(status).toBe(422);
      expect(body.error.code).toBe('EXTERNAL_AGENT_NOT_SUPPORTED');
      expect(body.error.message).toContain('code (agent=claude-code)');
      expect(server.manager.list({}).runs).toEqual([]);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await fake.close();
    }
  });

  it('is simulated in a dry run, as the CLI does', async () => {
    const server = await testServer();
    const { status, body } = await server.json('POST', '/pipelines', {
      dot_source: WITH_AGENT,
      dry_run: true,
    });
    expect(status).toBe(201);
    await waitFor(async () => {
      const run = (await server.json('GET', `/pipelines/${body.id}`)).body;
      return run.status === 'completed' ? run : undefined;
    }, 'the dry run');
  });
});
