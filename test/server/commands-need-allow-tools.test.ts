import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { closeServers, testServer } from './server-fixtures.js';

afterEach(closeServers);

/** start → work → exit, with `graphAttrs` on the graph and `work`'s attributes. */
const pipeline = (graphAttrs: string, work: string): string =>
  `digraph c { graph [${graphAttrs}]; start [shape=Mdiamond]; work [${work}]; exit [shape=Msquare]; start -> work -> exit }`;

/** Every way a submitted pipeline runs a command: each needs a server started with --allow-tools. */
const commands = (marker: string) => [
  {
    what: "the graph's tool_hooks.pre",
    dot: pipeline(`tool_hooks.pre="id > ${marker}"`, 'prompt="hi"'),
    named: "the graph's tool_hooks.pre",
  },
  {
    what: "the graph's tool_hooks.post",
    dot: pipeline(`tool_hooks.post="id > ${marker}"`, 'prompt="hi"'),
    named: "the graph's tool_hooks.post",
  },
  {
    what: "a node's tool_hooks.pre",
    dot: pipeline('', `prompt="hi", tool_hooks.pre="id > ${marker}"`),
    named: 'work (tool_hooks.pre)',
  },
  {
    what: 'a tool node',
    dot: pipeline('', `shape=parallelogram, tool_command="id > ${marker}"`),
    named: 'work (tool node)',
  },
  {
    what: "an agent's command",
    dot: pipeline('', `prompt="hi", agent="acp", agent_command="sh -c 'id > ${marker}'"`),
    named: 'work (agent_command)',
  },
];

describe('a server started without --allow-tools', () => {
  it.each(commands('pwned.txt'))(
    'refuses a pipeline that runs commands through $what (403, naming it)',
    async ({ dot, named }) => {
      const server = await testServer();
      const refused = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('TOOLS_NOT_ALLOWED');
      expect(refused.body.error.message).toContain(named);
      expect(refused.body.error.message).toMatch(/--allow-tools/);
      // A dry run executes no command: it is accepted.
      expect((await server.json('POST', '/pipelines', { dot_source: dot, dry_run: true })).status).toBe(201);
    },
  );

  it('accepts them when started with --allow-tools', async () => {
    const marker = path.join(tempDir(), 'hooked');
    const server = await testServer({ allowTools: true });
    for (const { dot } of commands(marker)) {
      expect((await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} })).status).toBe(201);
    }
  });
});
