import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicErrorReply,
  anthropicJsonReply,
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  type FakeBlock,
  startFakeAnthropicServer,
} from '../helpers/fake-anthropic-server.js';
import type { ScriptedReply, ScriptedServer } from '../helpers/sse.js';
import { liveTargets } from './live-targets.js';
import {
  SMOKE_COMMAND_CEILING_MS,
  STEERING,
  smokeCommandTimeout,
  smokeImageInput,
  smokeSteering,
  smokeSubagent,
} from './smoke-agent-features.js';
import { smokeAgent, smokeClient, smokePipeline } from './smoke-scenarios.js';

/**
 * The live smoke harness, proven offline: the same targets (built from the environment, here with
 * ANTHROPIC_BASE_URL pointing at the local Anthropic stand-in) and the same scenarios `npm run test:live`
 * runs, against a stand-in scripted to answer as a model would. If the harness could not pass against a
 * model that does the work, it could not tell anything about a real one.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function anthropicTarget(...replies: ScriptedReply[]): Promise<{
  target: ReturnType<typeof liveTargets>[number];
  server: ScriptedServer;
}> {
  const server = await startFakeAnthropicServer();
  cleanups.push(() => server.close());
  server.enqueue(...replies);
  const env = { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin };
  const targets = liveTargets(env);
  expect(targets.map((t) => [t.provider, t.configured])).toEqual([
    ['anthropic', true],
    ['openai', false],
    ['gemini', false],
  ]);
  return { target: targets[0]!, server };
}

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-smoke-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const text = (value: string) => anthropicStreamReply({ content: [{ type: 'text', text: value }] });
const call = (name: string, input: Record<string, unknown>, id = `toolu_${name}`) =>
  anthropicStreamReply({ content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use' });

describe('the live smoke harness against the local Anthropic stand-in', () => {
  it('takes the provider from the environment, and its model from ATTRACTOR_LIVE_<PROVIDER>_MODEL', () => {
    const [anthropic, openai] = liveTargets({ OPENAI_API_KEY: 'k', ATTRACTOR_LIVE_OPENAI_MODEL: 'gpt-5.2' });
    expect(anthropic).toMatchObject({
      configured: false,
      keyVariable: 'ANTHROPIC_API_KEY',
      model: 'claude-haiku-4-5',
    });
    expect(openai).toMatchObject({ configured: true, model: 'gpt-5.2' });
  });

  it('LLM client smoke test', async () => {
    const weather: FakeBlock[] = [
      { type: 'tool_use', id: 'toolu_p', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_t', name: 'get_weather', input: { city: 'Tokyo' } },
    ];
    const { target, server } = await anthropicTarget(
      anthropicJsonReply({ content: [{ type: 'text', text: 'pong' }] }),
      text('1 2 3 4 5'),
      anthropicJsonReply({ content: weather, stop_reason: 'tool_use' }),
      anthropicJsonReply({ content: [{ type: 'text', text: 'Both sunny, 21 °C.' }] }),
      anthropicJsonReply({ content: [{ type: 'text', text: '{"name": "Alice", "age": 30}' }] }),
      anthropicErrorReply(404, 'not_found_error', 'model: nonexistent-model-xyz'),
    );
    await smokeClient(target);
    expect(server.requests).toHaveLength(6);
  });

  it('coding agent smoke test', async () => {
    const { target } = await anthropicTarget(
      call('write_file', { file_path: 'hello.mjs', content: "console.log('Hello');\n" }),
      text('Created hello.mjs.'),
      call('edit_file', {
        file_path: 'hello.mjs',
        old_string: "console.log('Hello');",
        new_string: "console.log('Hello');\nconsole.log('Goodbye');",
      }),
      call('shell', { command: 'node hello.mjs' }),
      text('It prints Hello, then Goodbye.'),
      call('read_file', { file_path: 'big.txt' }),
      text('About 100,000 characters, all x.'),
    );
    await smokeAgent(target, workspace());
  });

  it('pipeline smoke test', async () => {
    const { target, server } = await anthropicTarget(
      text('1. Write hello.mjs. 2. Run it. 3. Check the output.'),
      call('write_file', { file_path: 'hello.mjs', content: "console.log('Hello, World!');\n" }),
      text('Wrote hello.mjs.'),
      call('shell', { command: 'node hello.mjs' }),
      text('hello.mjs prints Hello, World!'),
    );
    await smokePipeline(target, workspace());
    expect(server.requests).toHaveLength(5);
  });

  it('steering: a message steered in after the first tool round reaches the model', async () => {
    const { target, server } = await anthropicTarget(
      call('write_file', { file_path: 'a.txt', content: 'one\n' }),
      call('write_file', { file_path: 'b.txt', content: 'two\n' }),
      text('Created a.txt and b.txt.'),
    );
    await smokeSteering(target, workspace());
    expect(JSON.stringify(server.requests[1]!.body)).toContain(STEERING);
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain(STEERING);
  });

  it('subagent: the parent spawns one and waits; the subagent writes the file', async () => {
    const { target, server } = await anthropicTarget(
      anthropicStreamReply({
        content: [
          {
            type: 'tool_use',
            id: 'toolu_spawn',
            name: 'spawn_agent',
            input: { task: 'Create sub.txt: delegated' },
          },
          { type: 'tool_use', id: 'toolu_wait', name: 'wait', input: { agent_id: 'agent-1' } },
        ],
        stop_reason: 'tool_use',
      }),
      call('write_file', { file_path: 'sub.txt', content: 'delegated\n' }),
      text('Created sub.txt.'),
      text('The subagent answered: Created sub.txt.'),
    );
    await smokeSubagent(target, workspace());
    // The subagent's first request is its own conversation: the task, not the parent's.
    expect(JSON.stringify(server.requests[1]!.body)).toContain('Create sub.txt: delegated');
    expect(JSON.stringify(server.requests[1]!.body)).not.toContain('Delegate this to a subagent');
  });

  it('command timeout: a sleep asked for 60 s is stopped at the session ceiling', async () => {
    const { target } = await anthropicTarget(
      call('shell', { command: 'sleep 30 && echo finished > late.txt', timeout_ms: 60_000 }),
      text(`The command timed out after ${SMOKE_COMMAND_CEILING_MS} ms.`),
    );
    await smokeCommandTimeout(target, workspace());
  });

  it('image input: the PNG reaches the provider as an image block', async () => {
    const { target, server } = await anthropicTarget(
      anthropicJsonReply({ content: [{ type: 'text', text: 'Red.' }] }),
    );
    await smokeImageInput(target);
    const content = (server.requests[0]!.body as { messages: Array<{ content: unknown[] }> }).messages[0]!
      .content;
    expect(content).toContainEqual(
      expect.objectContaining({
        type: 'image',
        source: expect.objectContaining({ type: 'base64', media_type: 'image/png' }),
      }),
    );
  });
});
