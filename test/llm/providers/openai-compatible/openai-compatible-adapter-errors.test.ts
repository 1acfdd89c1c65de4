import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Message } from '../../../../src/llm/message.js';
import { OpenAICompatibleAdapter } from '../../../../src/llm/providers/openai-compatible/openai-compatible-adapter.js';
import type { Request, StreamEvent } from '../../../../src/llm/types.js';
import {
  chatChunk,
  chatSseReply,
  FAKE_OPENAI_KEY,
  type FakeOpenAIServer,
  openAIErrorReply,
  startFakeOpenAIServer,
} from '../../../helpers/fake-openai-server.js';
import { collectEvents, rejectionOf } from '../../../helpers/llm-fixtures.js';
import type { ScriptedReply } from '../../../helpers/sse.js';

let server: FakeOpenAIServer;
let adapter: OpenAICompatibleAdapter;
/** Only the timeout tests get a short timeout: a slow first call on a loaded machine must not fail the others. */
let impatient: OpenAICompatibleAdapter;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
  adapter = new OpenAICompatibleAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL });
  impatient = new OpenAICompatibleAdapter({
    apiKey: FAKE_OPENAI_KEY,
    baseURL: server.baseURL,
    timeoutMs: 200,
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const request: Request = { model: 'local', messages: [Message.user('Hello')] };

const failure = rejectionOf;

const drain = collectEvents;

const textChunks = [
  chatChunk({ role: 'assistant', content: 'He' }),
  chatChunk({ content: 'llo' }),
  chatChunk({}, 'stop'),
];

describe('OpenAICompatibleAdapter errors', () => {
  it.each<
    [string, ScriptedReply, { name: string; isRetryable: boolean; status?: number; retryAfterMs?: number }]
  >([
    [
      '400 invalid request',
      openAIErrorReply(400, { message: 'Unknown parameter', type: 'invalid_request_error' }),
      { name: 'InvalidRequestError', isRetryable: false, status: 400 },
    ],
    [
      '400 context length (vLLM wording)',
      openAIErrorReply(400, {
        message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
        type: 'BadRequestError',
      }),
      { name: 'ContextLengthError', isRetryable: false, status: 400 },
    ],
    [
      '404 unknown model',
      openAIErrorReply(404, { message: 'model "nope" not found, try pulling it first', type: 'api_error' }),
      { name: 'NotFoundError', isRetryable: false, status: 404 },
    ],
    [
      '429 with Retry-After',
      openAIErrorReply(429, { message: 'Rate limit exceeded', type: 'rate_limit' }, { 'retry-after': '2' }),
      { name: 'RateLimitError', isRetryable: true, status: 429, retryAfterMs: 2000 },
    ],
    [
      '500 server error',
      openAIErrorReply(500, { message: 'CUDA out of memory', type: 'server_error' }),
      { name: 'ServerError', isRetryable: true, status: 500 },
    ],
  ])('maps %s, sent once', async (_name, reply, expected) => {
    server.enqueue(reply);
    const error = await failure(adapter.complete(request));
    expect(error).toMatchObject({ provider: 'openai-compatible', ...expected });
    expect(server.requests).toHaveLength(1);
  });

  it('maps 401 from a wrong key', async () => {
    const wrong = new OpenAICompatibleAdapter({ apiKey: 'nope', baseURL: server.baseURL });
    const error = await failure(wrong.complete(request));
    expect(error).toMatchObject({ name: 'AuthenticationError', status: 401, isRetryable: false });
  });

  it('yields what arrived, then throws a StreamError when the connection drops', async () => {
    server.enqueue(chatSseReply(textChunks, { breakAfter: 2 }));
    const seen: StreamEvent[] = [];
    const error = await failure(drain(adapter.stream(request), seen));
    expect(error).toMatchObject({ name: 'StreamError', isRetryable: true });
    expect(seen.map((e) => e.type)).toEqual(['stream_start', 'text_start', 'text_delta', 'text_delta']);
  });

  it('throws a StreamError when [DONE] comes before any finish reason', async () => {
    server.enqueue(chatSseReply(textChunks.slice(0, 2)));
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({ name: 'StreamError', message: expect.stringContaining('finish reason') });
  });

  it('throws the typed error of an error object sent inside the stream', async () => {
    server.enqueue(
      chatSseReply(
        [
          chatChunk({ content: 'a' }),
          { error: { message: 'overloaded', type: 'server_error', code: 'server_error' } },
        ],
        {
          done: false,
        },
      ),
    );
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({ name: 'ServerError', isRetryable: true, errorCode: 'server_error' });
  });

  it('times out a server that never answers, and a stream that stalls', async () => {
    server.enqueue({ kind: 'hang' }, chatSseReply(textChunks, { hangAfter: 1 }));
    expect(await failure(impatient.complete(request))).toMatchObject({ name: 'RequestTimeoutError' });
    const seen: StreamEvent[] = [];
    expect(await failure(drain(impatient.stream(request), seen))).toMatchObject({
      name: 'RequestTimeoutError',
    });
    expect(seen.map((e) => e.type)).toEqual(['stream_start', 'text_start', 'text_delta']);
  });

  it('aborts through the caller’s AbortSignal, before and during a stream', async () => {
    server.enqueue({ kind: 'hang' }, chatSseReply(textChunks, { hangAfter: 1 }));
    expect(await failure(adapter.complete(request, { signal: AbortSignal.timeout(100) }))).toMatchObject({
      name: 'AbortError',
    });
    const seen: StreamEvent[] = [];
    const error = await failure(drain(adapter.stream(request, { signal: AbortSignal.timeout(300) }), seen));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(seen.map((e) => e.type)).toEqual(['stream_start', 'text_start', 'text_delta']);
  });
});
