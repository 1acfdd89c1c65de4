import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_GEMINI_KEY, geminiSseReply, startFakeGeminiServer } from '../../helpers/fake-gemini-server.js';
import {
  chatChunk,
  chatSseReply,
  FAKE_OPENAI_KEY,
  functionCallItem,
  messageItem,
  responsesSseReply,
  responsesStream,
  startFakeOpenAIServer,
  streamedFunctionCallEvents,
  streamedMessageEvents,
} from '../../helpers/fake-openai-server.js';
import type { ScriptedReply, ScriptedServer } from '../../helpers/sse.js';
import { runCli } from '../run-cli.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface ProviderCase {
  name: string;
  /** Node attributes choosing the model. */
  attrs: string;
  start(): Promise<{ server: ScriptedServer; env: Record<string, string> }>;
  /** A tool call turn, then a text turn. */
  replies(tool: string, args: Record<string, unknown>, text: string): ScriptedReply[];
  tool: string;
  args: Record<string, unknown>;
  file: string;
  content: string;
}

const openaiResponses = (tool: string, args: Record<string, unknown>, text: string): ScriptedReply[] => {
  const json = JSON.stringify(args);
  return [
    responsesSseReply(
      responsesStream(streamedFunctionCallEvents(0, 'call_1', tool, [json.slice(0, 10), json.slice(10)]), {
        output: [functionCallItem('call_1', tool, json)],
        usage: { input: 1200, output: 40 },
      }),
    ),
    responsesSseReply(
      responsesStream(streamedMessageEvents(0, [text]), {
        output: [messageItem(text)],
        usage: { input: 1300, output: 10 },
      }),
    ),
  ];
};

const CASES: ProviderCase[] = [
  {
    name: 'OpenAI Responses, apply_patch',
    attrs: 'llm_model="gpt-5.2"',
    async start() {
      const server = await startFakeOpenAIServer();
      return { server, env: { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: server.baseURL } };
    },
    replies: openaiResponses,
    tool: 'apply_patch',
    args: { patch: '*** Begin Patch\n*** Add File: notes.md\n+patched by the agent\n*** End Patch' },
    file: 'notes.md',
    content: 'patched by the agent\n',
  },
  {
    name: 'Gemini, shell',
    attrs: 'llm_model="gemini-2.5-flash"',
    async start() {
      const server = await startFakeGeminiServer();
      return { server, env: { GEMINI_API_KEY: FAKE_GEMINI_KEY, GEMINI_BASE_URL: server.origin } };
    },
    replies: (tool, args, text) => [
      geminiSseReply([
        {
          parts: [{ functionCall: { name: tool, args } }],
          finishReason: 'STOP',
          usage: { prompt: 900, candidates: 20 },
        },
      ]),
      geminiSseReply([{ parts: [{ text }], finishReason: 'STOP', usage: { prompt: 950, candidates: 8 } }]),
    ],
    tool: 'shell',
    args: { command: 'echo from-shell > shell.txt' },
    file: 'shell.txt',
    content: 'from-shell\n',
  },
  {
    name: 'OpenAI-compatible Chat Completions, write_file',
    attrs: 'llm_provider="openai-compatible", llm_model="local-model"',
    async start() {
      const server = await startFakeOpenAIServer();
      return {
        server,
        env: { OPENAI_COMPATIBLE_BASE_URL: server.baseURL, OPENAI_COMPATIBLE_API_KEY: FAKE_OPENAI_KEY },
      };
    },
    replies: (tool, args, text) => [
      chatSseReply([
        chatChunk({ role: 'assistant', content: null }),
        chatChunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: tool, arguments: JSON.stringify(args) },
            },
          ],
        }),
        chatChunk({}, 'tool_calls'),
        chatChunk(null, null, { prompt: 500, completion: 30 }),
      ]),
      chatSseReply([
        chatChunk({ role: 'assistant', content: text }),
        chatChunk({}, 'stop'),
        chatChunk(null, null, { prompt: 600, completion: 5 }),
      ]),
    ],
    tool: 'write_file',
    args: { path: 'compat.txt', content: 'compatible\n' },
    file: 'compat.txt',
    content: 'compatible\n',
  },
];

describe('attractor run against each provider’s wire format', () => {
  it.each(CASES)('$name: the tool changes the working directory, response.md holds the answer', async (c) => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-agent-')));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { server, env } = await c.start();
    cleanups.push(() => server.close());
    server.enqueue(...c.replies(c.tool, c.args, `Done with ${c.file}.`));
    writeFileSync(
      path.join(dir, 'p.dot'),
      `digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; work [prompt="Make ${c.file}", ${c.attrs}]; start -> work -> exit; }`,
    );
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    // Only the plan: which model the node uses.
    expect(result.stderr).toMatch(/^attractor: work: agent model \S+ via \S+\n$/);
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(dir, c.file), 'utf8')).toBe(c.content);
    expect(readFileSync(path.join(dir, 'run', 'work', 'response.md'), 'utf8')).toBe(`Done with ${c.file}.`);
    expect(server.requests).toHaveLength(2);
  });
});

describe('an OpenAI-compatible server without OPENAI_COMPATIBLE_API_KEY', () => {
  async function workspace(attrs: string): Promise<string> {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-compat-')));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      path.join(dir, 'p.dot'),
      `digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; work [prompt="Say hi", ${attrs}]; start -> work -> exit; }`,
    );
    return dir;
  }
  const answer = chatSseReply([
    chatChunk({ role: 'assistant', content: 'Hi.' }),
    chatChunk({}, 'stop'),
    chatChunk(null, null, { prompt: 50, completion: 2 }),
  ]);

  it('runs against a keyless local server, sending no Authorization header', async () => {
    const server = await startFakeOpenAIServer(null);
    cleanups.push(() => server.close());
    server.enqueue(answer);
    const dir = await workspace('llm_provider="openai-compatible", llm_model="qwen3:8b"');
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseURL };
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    // Only the plan: which model the node uses.
    expect(result.stderr).toMatch(/^attractor: work: agent model \S+ via \S+\n$/);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers).not.toHaveProperty('authorization');
  });

  it('a server that wants a key refused the request: the failure names OPENAI_COMPATIBLE_API_KEY', async () => {
    const server = await startFakeOpenAIServer();
    cleanups.push(() => server.close());
    const dir = await workspace('llm_provider="openai-compatible", llm_model="qwen3:8b"');
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseURL };
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(1);
    const status = JSON.parse(readFileSync(path.join(dir, 'run', 'work', 'status.json'), 'utf8')) as {
      failure_reason: string;
    };
    expect(status.failure_reason).toMatch(
      /^openai-compatible refused the request \(.*Incorrect API key.*\): check OPENAI_COMPATIBLE_API_KEY$/,
    );
  });

  it('a node naming no model is told so, not that a provider is not configured', async () => {
    const dir = await workspace('llm_provider="openai-compatible"');
    const env = { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1' };
    const result = await runCli(['run', 'p.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no model is named for provider openai-compatible');
    expect(result.stderr).toContain('needed by node work');
    expect(result.stderr).not.toContain('not configured');
  });
});
