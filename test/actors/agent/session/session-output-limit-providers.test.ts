import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalExecutionEnvironment } from '../../../../src/actors/agent/environment/local-execution-environment.js';
import { getProfile } from '../../../../src/actors/agent/profiles/get-profile.js';
import { createSession } from '../../../../src/actors/agent/session/session.js';
import {
  AnthropicAdapter,
  GeminiAdapter,
  LLMClient,
  OpenAIAdapter,
  type ProviderAdapter,
} from '../../../../src/llm/index.js';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../../../helpers/fake-anthropic-server.js';
import {
  FAKE_GEMINI_KEY,
  geminiSseReply,
  startFakeGeminiServer,
} from '../../../helpers/fake-gemini-server.js';
import {
  FAKE_OPENAI_KEY,
  functionCallItem,
  messageItem,
  responsesSseReply,
  responsesStream,
  startFakeOpenAIServer,
  streamedFunctionCallEvents,
  streamedMessageEvents,
} from '../../../helpers/fake-openai-server.js';
import type { RecordedRequest, ScriptedReply, ScriptedServer } from '../../../helpers/sse.js';
import { collect } from './session-fixtures.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What the model got to write of a write_file call before the limit: the JSON stops mid-string. */
const PARTIAL = '{"path": "big.ts", "content": "export const answer = 42;\\nexport const more';

interface ProviderCase {
  name: string;
  provider: string;
  model: string;
  /** The model's own output limit in the catalog. */
  limit: number;
  start(): Promise<{ server: ScriptedServer; adapter: ProviderAdapter }>;
  /** A write_file call cut off by the output limit, then a text answer. */
  replies(): ScriptedReply[];
  /** The max-output field of the request body. */
  sentLimit(request: RecordedRequest): unknown;
  /** The second request's answer for the cut call: its text. */
  cutResult(request: RecordedRequest): string;
}

const body = (request: RecordedRequest) => request.body as Record<string, unknown>;
const asList = (value: unknown) => value as Array<Record<string, unknown>>;

const CASES: ProviderCase[] = [
  {
    name: 'Anthropic Messages (stop_reason max_tokens)',
    provider: 'anthropic',
    model: 'claude-sonnet-4-6',
    limit: 64_000,
    async start() {
      const server = await startFakeAnthropicServer();
      const adapter = new AnthropicAdapter({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: server.origin });
      return { server, adapter };
    },
    replies: () => [
      anthropicStreamReply({
        content: [{ type: 'tool_use', id: 'toolu_cut', name: 'write_file', input: {}, partialJson: PARTIAL }],
        stop_reason: 'max_tokens',
        usage: { input_tokens: 2_000, output_tokens: 64_000 },
      }),
      anthropicStreamReply({ content: [{ type: 'text', text: 'I will write it in parts.' }] }),
    ],
    sentLimit: (request) => body(request)['max_tokens'],
    cutResult: (request) => {
      const last = asList(body(request)['messages']).at(-1)!;
      const result = asList(last['content']).find((block) => block['type'] === 'tool_result')!;
      expect(result).toMatchObject({ tool_use_id: 'toolu_cut', is_error: true });
      return JSON.stringify(result['content']);
    },
  },
  {
    name: 'OpenAI Responses (incomplete: max_output_tokens)',
    provider: 'openai',
    model: 'gpt-5.2',
    limit: 128_000,
    async start() {
      const server = await startFakeOpenAIServer();
      const adapter = new OpenAIAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL });
      return { server, adapter };
    },
    replies: () => [
      responsesSseReply(
        responsesStream(
          streamedFunctionCallEvents(0, 'call_cut', 'write_file', [PARTIAL.slice(0, 20), PARTIAL.slice(20)]),
          {
            status: 'incomplete',
            incompleteReason: 'max_output_tokens',
            output: [{ ...functionCallItem('call_cut', 'write_file', PARTIAL), status: 'incomplete' }],
            usage: { input: 2_000, output: 128_000 },
          },
          'response.incomplete',
        ),
      ),
      responsesSseReply(
        responsesStream(streamedMessageEvents(0, ['In parts.']), { output: [messageItem('In parts.')] }),
      ),
    ],
    sentLimit: (request) => body(request)['max_output_tokens'],
    cutResult: (request) => {
      const input = asList(body(request)['input']);
      // The cut call goes back with its broken arguments replaced: the API takes them as text.
      expect(input.find((item) => item['type'] === 'function_call')).toMatchObject({
        call_id: 'call_cut',
        arguments: '{}',
      });
      const output = input.find((item) => item['type'] === 'function_call_output')!;
      expect(output['call_id']).toBe('call_cut');
      return String(output['output']);
    },
  },
  {
    name: 'Gemini (finishReason MAX_TOKENS)',
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    limit: 65_536,
    async start() {
      const server = await startFakeGeminiServer();
      const adapter = new GeminiAdapter({ apiKey: FAKE_GEMINI_KEY, baseURL: server.origin });
      return { server, adapter };
    },
    replies: () => [
      // Gemini sends a call whole, even when the limit then stops the answer: still not run.
      geminiSseReply([
        {
          parts: [
            { functionCall: { name: 'write_file', args: { path: 'big.ts', content: 'export const a' } } },
          ],
          finishReason: 'MAX_TOKENS',
          usage: { prompt: 2_000, candidates: 65_536 },
        },
      ]),
      geminiSseReply([{ parts: [{ text: 'In parts.' }], finishReason: 'STOP' }]),
    ],
    sentLimit: (request) => (body(request)['generationConfig'] as Record<string, unknown>)['maxOutputTokens'],
    cutResult: (request) => {
      const contents = asList(body(request)['contents']);
      const parts = contents.flatMap((content) => asList(content['parts']));
      const response = parts.find((part) => part['functionResponse'] !== undefined)!['functionResponse'];
      return JSON.stringify(response);
    },
  },
];

describe('a tool call cut off by the output limit, over each provider’s wire format', () => {
  it.each(CASES)('$name: the request asks for the model’s limit; the cut call is not run', async (c) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'attractor-cut-')));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { server, adapter } = await c.start();
    cleanups.push(() => server.close());
    server.enqueue(...c.replies());
    const session = createSession({
      client: new LLMClient({ adapters: [adapter], retryPolicy: { maxRetries: 0 } }),
      profile: getProfile(c.provider, { model: c.model }),
      env: new LocalExecutionEnvironment({ workingDir: dir }),
      model: c.model,
    });
    cleanups.push(() => session.shutdown());
    const events = await collect(session.submit('Write big.ts with the whole module.'));
    expect(server.requests).toHaveLength(2);
    expect(c.sentLimit(server.requests[0]!)).toBe(c.limit);
    expect(existsSync(join(dir, 'big.ts'))).toBe(false);
    expect(events.map((e) => e.kind)).not.toContain('tool_call_start');
    const cut = events.find((e) => e.kind === 'output_truncated');
    expect(cut?.data).toMatchObject({ max_tokens: c.limit, tool_name: 'write_file' });
    expect(c.cutResult(server.requests[1]!)).toContain(
      `Not run: your output reached its limit of ${c.limit}`,
    );
    expect(events.at(-1)?.kind).toBe('processing_end');
  });
});
