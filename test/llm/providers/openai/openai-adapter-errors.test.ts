import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Message } from '../../../../src/llm/message.js';
import { OpenAIAdapter } from '../../../../src/llm/providers/openai/openai-adapter.js';
import type { Request, StreamEvent } from '../../../../src/llm/types.js';
import {
  FAKE_OPENAI_KEY,
  type FakeOpenAIServer,
  messageItem,
  openAIErrorReply,
  responsesSseReply,
  responsesStream,
  startFakeOpenAIServer,
  streamedMessageEvents,
} from '../../../helpers/fake-openai-server.js';
import { collectEvents, rejectionOf } from '../../../helpers/llm-fixtures.js';
import type { ScriptedReply } from '../../../helpers/sse.js';

let server: FakeOpenAIServer;
let adapter: OpenAIAdapter;
/** Only the timeout tests get a short timeout: a slow first call on a loaded machine must not fail the others. */
let impatient: OpenAIAdapter;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
  adapter = new OpenAIAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL });
  impatient = new OpenAIAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL, timeoutMs: 200 });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const request: Request = { model: 'gpt-5.2', messages: [Message.user('Hello')] };

const failure = rejectionOf;

const drain = collectEvents;

describe('OpenAIAdapter HTTP errors', () => {
  it.each<
    [string, ScriptedReply, { name: string; isRetryable: boolean; status?: number; retryAfterMs?: number }]
  >([
    [
      '400 invalid request',
      openAIErrorReply(400, {
        message: "Invalid value for 'temperature'",
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'invalid_value',
      }),
      { name: 'InvalidRequestError', isRetryable: false, status: 400 },
    ],
    [
      '400 context_length_exceeded',
      openAIErrorReply(400, {
        message:
          'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        param: 'input',
        code: 'context_length_exceeded',
      }),
      { name: 'ContextLengthError', isRetryable: false, status: 400 },
    ],
    [
      '413 request too large',
      openAIErrorReply(413, { message: 'Request too large', type: 'invalid_request_error' }),
      { name: 'ContextLengthError', isRetryable: false, status: 413 },
    ],
    [
      '403 permission',
      openAIErrorReply(403, {
        message: 'Project does not have access to model',
        type: 'invalid_request_error',
      }),
      { name: 'PermissionDeniedError', isRetryable: false, status: 403 },
    ],
    [
      '404 unknown model',
      openAIErrorReply(404, {
        message: 'The model `nonexistent-model-xyz` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        code: 'model_not_found',
      }),
      { name: 'NotFoundError', isRetryable: false, status: 404 },
    ],
    [
      '429 with Retry-After seconds',
      openAIErrorReply(
        429,
        { message: 'Rate limit reached for gpt-5.2', type: 'requests', code: 'rate_limit_exceeded' },
        { 'retry-after': '7' },
      ),
      { name: 'RateLimitError', isRetryable: true, status: 429, retryAfterMs: 7000 },
    ],
    [
      '429 with retry-after-ms',
      openAIErrorReply(
        429,
        { message: 'Rate limit reached', type: 'tokens', code: 'rate_limit_exceeded' },
        { 'retry-after-ms': '1500', 'retry-after': '2' },
      ),
      { name: 'RateLimitError', isRetryable: true, status: 429, retryAfterMs: 1500 },
    ],
    [
      '429 insufficient quota',
      openAIErrorReply(429, {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      }),
      { name: 'QuotaExceededError', isRetryable: false, status: 429 },
    ],
    [
      '500 server error',
      openAIErrorReply(500, {
        message: 'The server had an error while processing your request.',
        type: 'server_error',
      }),
      { name: 'ServerError', isRetryable: true, status: 500 },
    ],
    [
      '503 overloaded',
      { kind: 'text', status: 503, body: 'upstream connect error' },
      { name: 'ServerError', isRetryable: true, status: 503 },
    ],
  ])('maps %s, sent once (the SDK does not retry)', async (_name, reply, expected) => {
    server.enqueue(reply);
    const error = await failure(adapter.complete(request));
    expect(error).toMatchObject({ provider: 'openai', ...expected });
    expect(error.message).toContain('openai');
    expect(server.requests).toHaveLength(1);
  });

  it('maps 401 from a wrong key to AuthenticationError', async () => {
    const wrongKey = new OpenAIAdapter({ apiKey: 'sk-wrong', baseURL: server.baseURL });
    const error = await failure(wrongKey.complete(request));
    expect(error).toMatchObject({ name: 'AuthenticationError', status: 401 });
    expect(error.raw).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(error.isRetryable).toBe(false);
  });

  it('maps the same HTTP errors when streaming', async () => {
    server.enqueue(openAIErrorReply(429, { message: 'slow down', type: 'requests' }, { 'retry-after': '3' }));
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 3000 });
  });

  it('maps a refused connection to a retryable NetworkError', async () => {
    const closed = await startFakeOpenAIServer();
    const baseURL = closed.baseURL;
    await closed.close();
    const error = await failure(new OpenAIAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL }).complete(request));
    expect(error).toMatchObject({ name: 'NetworkError', isRetryable: true });
  });
});

describe('OpenAIAdapter stream failures', () => {
  it('yields what arrived, then throws a retryable StreamError when the connection drops mid-stream', async () => {
    const events = responsesStream(streamedMessageEvents(0, ['Hel', 'lo', ' wor', 'ld']), {
      output: [messageItem('Hello world')],
    });
    server.enqueue(responsesSseReply(events, { breakAfter: 5 }));
    const seen: StreamEvent[] = [];
    const error = await failure(drain(adapter.stream(request), seen));
    expect(error).toMatchObject({ name: 'StreamError', isRetryable: true, provider: 'openai' });
    expect(seen.map((event) => event.type)).toEqual(['stream_start', 'text_start', 'text_delta']);
  });

  it('throws the typed error of a response.failed event', async () => {
    server.enqueue(
      responsesSseReply(
        responsesStream(
          [],
          { status: 'failed', error: { code: 'server_error', message: 'Something went wrong' } },
          'response.failed',
        ),
      ),
    );
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({ name: 'ServerError', isRetryable: true, errorCode: 'server_error' });
  });

  it('throws on an error event', async () => {
    server.enqueue(
      responsesSseReply([
        { type: 'response.created', response: { id: 'resp_1', model: 'gpt-5.2', output: [] } },
        { type: 'error', code: 'rate_limit_exceeded', message: 'Too many tokens per minute', param: null },
      ]),
    );
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({
      name: 'RateLimitError',
      isRetryable: true,
      errorCode: 'rate_limit_exceeded',
    });
  });

  it('throws a StreamError when the stream ends without response.completed', async () => {
    server.enqueue(responsesSseReply(streamedMessageEvents(0, ['cut'])));
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({
      name: 'StreamError',
      message: expect.stringContaining('response.completed'),
    });
  });
});

describe('OpenAIAdapter timeouts and aborts', () => {
  it('times out a server that never answers', async () => {
    server.enqueue({ kind: 'hang' });
    const started = Date.now();
    const error = await failure(impatient.complete(request));
    expect(error).toMatchObject({ name: 'RequestTimeoutError', isRetryable: false });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('times out a stream that stalls after its first events', async () => {
    const events = responsesStream(streamedMessageEvents(0, ['a', 'b']), { output: [messageItem('ab')] });
    server.enqueue(responsesSseReply(events, { hangAfter: 3 }));
    const seen: StreamEvent[] = [];
    const error = await failure(drain(impatient.stream(request), seen));
    expect(error).toMatchObject({ name: 'RequestTimeoutError' });
    expect(seen.map((event) => event.type)).toEqual(['stream_start', 'text_start']);
  });

  it('does not count the consumer’s own time against the timeout', async () => {
    const events = responsesStream(streamedMessageEvents(0, ['a', 'b']), { output: [messageItem('ab')] });
    server.enqueue(responsesSseReply(events));
    const seen: StreamEvent[] = [];
    for await (const event of impatient.stream(request)) {
      seen.push(event);
      if (event.type === 'text_start') await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(seen.at(-1)?.type).toBe('finish');
  });

  it('aborts a hanging request through the caller’s AbortSignal', async () => {
    server.enqueue({ kind: 'hang' });
    const error = await failure(adapter.complete(request, { signal: AbortSignal.timeout(100) }));
    expect(error).toMatchObject({ name: 'AbortError', isRetryable: false });
  });

  it('aborts a stream mid-way through the caller’s AbortSignal', async () => {
    const events = responsesStream(streamedMessageEvents(0, ['a', 'b']), { output: [messageItem('ab')] });
    server.enqueue(responsesSseReply(events, { hangAfter: 3 }));
    const controller = new AbortController();
    const seen: StreamEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of adapter.stream(request, { signal: controller.signal })) {
          seen.push(event);
          if (event.type === 'text_start') setTimeout(() => controller.abort(), 50);
        }
      })(),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(seen.map((event) => event.type)).toEqual(['stream_start', 'text_start']);
  });

  it('fails at once with an already-aborted signal', async () => {
    const error = await failure(adapter.complete(request, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});
