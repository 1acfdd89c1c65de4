import { describe, expect, it } from 'vitest';
import { withAgentBackends } from '../../../src/actors/acp/with-agent-backends.js';
import type { CodergenBackend, CodergenRequest } from '../../../src/actors/codergen-backend.js';

const backend = (name: string): CodergenBackend => ({
  name,
  run: async (request) => ({ response: `${name}:${request.node.id}` }),
});
const request = (id: string, agent?: string) =>
  ({
    node: { id, handler: 'codergen', attrs: agent === undefined ? {} : { agent }, extra: {}, classes: [] },
  }) as unknown as CodergenRequest;

describe('withAgentBackends', () => {
  it.each([
    ['plain', undefined, 'simulated:plain'],
    ['agent', 'claude', 'acp:agent'],
    ['blank', '  ', 'simulated:blank'],
  ])('node %s (agent=%s) → %s', async (id, agent, response) => {
    const routed = withAgentBackends(backend('simulated'), backend('acp'));
    expect(routed.name).toBe('simulated+acp');
    expect((await routed.run(request(id, agent))).response).toBe(response);
  });
});
