import { afterEach, describe, expect, it } from 'vitest';
import { SUBMISSION_LIMITS } from '../../src/server/submission-limits.js';
import { closeServers, testServer } from './server-fixtures.js';

afterEach(closeServers);

/** A chain of `count` work nodes, plus `extraEdges` more edges between the first two. */
function chain(count: number, extraEdges = 0): string {
  const ids = Array.from({ length: count }, (_, i) => `n${i}`);
  const lines = ids.map((id) => `  ${id} [prompt="p"]`);
  lines.push(`  start -> ${ids.join(' -> ')} -> exit`);
  for (let i = 0; i < extraEdges; i++) lines.push(`  n0 -> n1 [condition="outcome=success"]`);
  return `digraph big {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n${lines.join('\n')}\n}`;
}

describe('POST /pipelines: the size of a pipeline', () => {
  it.each([
    ['30,000 nodes', chain(30_000), 'maxNodes'],
    ['one node too many', chain(SUBMISSION_LIMITS.maxNodes - 1), 'maxNodes'],
    ['one edge too many', chain(10, SUBMISSION_LIMITS.maxEdges - 10), 'maxEdges'],
  ])('%s: 413 naming the limit, answered at once', async (_what, dot_source, limit) => {
    const server = await testServer();
    const started = performance.now();
    const { status, body } = await server.json('POST', '/pipelines', { dot_source, dry_run: true });
    // Refused by counting, not by compiling and checking what it counted (30,000 nodes held a server ~9 s).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(status).toBe(413);
    expect(body.error).toMatchObject({ code: 'PIPELINE_TOO_LARGE', limit });
    expect(body.error.message).toContain(`${limit}=`);
    expect(server.manager.list({}).runs).toEqual([]);
  });

  it('accepts a pipeline at the limits', async () => {
    const server = await testServer();
    // start and exit count: the largest chain the limit lets through.
    const { status } = await server.json('POST', '/pipelines', {
      dot_source: chain(SUBMISSION_LIMITS.maxNodes - 2),
      dry_run: true,
    });
    expect(status).toBe(201);
  });
});
