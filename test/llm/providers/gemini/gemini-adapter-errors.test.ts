import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Message } from '../../../../src/llm/message.js';
import { GeminiAdapter } from '../../../../src/llm/providers/gemini/gemini-adapter.js';
import type { Request, StreamEvent } from '../../../../src/llm/types.js';
import {
  FAKE_GEMINI_KEY,
  geminiErrorReply,
  geminiSseReply,
  startFakeGeminiServer,
} from '../../../helpers/fake-gemini-server.js';
import { collectEvents, rejectionOf } from '../../../helpers/llm-fixtures.js';
import type { ScriptedReply, ScriptedServer } from '../../../helpers/sse.js';

let server: ScriptedServer;
let adapter: GeminiAdapter;
/** Only the timeout tests get a short timeout: a slow first call on a loaded machine must not fail the others. */
let impatient: GeminiAdapter;

beforeAll(async () => {
  server = await startFakeGeminiServer();
  adapter = new GeminiAdapter({ apiKey: FAKE_GEMINI_KEY, baseURL: server.origin });
  impatient = new GeminiAdapter({ apiKey: FAKE_GEMINI_KEY, baseURL: server.origin, timeoutMs: 200 });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const request: Request = { model: 'gemini-2.5-pro', messages: [Message.user('Hello')] };

const failure = rejectionOf;

const drain = collectEvents;

const retryInfo = (delay: string) => [
  { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay },
];

describe('GeminiAdapter HTTP errors', () => {
  it.each<
    [string, ScriptedReply, { name: string; isRetryable: boolean; status: number; retryAfterMs?: number }]
  >([
    [
      '400 invalid argument',
      geminiErrorReply(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "foo"'),
      { name: 'InvalidRequestError', isRetryable: false, status: 400 },
    ],
    [
      '400 input over the context window',
      geminiErrorReply(
        400,
        'INVALID_ARGUMENT',
        'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      ),
      { name: 'ContextLengthError', isRetryable: false, status: 400 },
    ],
    [
      '401 unauthenticated',
      geminiErrorReply(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'),
      { name: 'AuthenticationError', isRetryable: false, status: 401 },
    ],
    [
      '403 permission denied',
      geminiErrorReply(403, 'PERMISSION_DENIED', 'Your API key was reported as leaked.'),
      { name: 'PermissionDeniedError', isRetryable: false, status: 403 },
    ],
    [
      '404 unknown model',
      geminiErrorReply(404, 'NOT_FOUND', 'models/nonexistent-model-xyz is not found for API version v1beta'),
      { name: 'NotFoundError', isRetryable: false, status: 404 },
    ],
    [
      '429 with RetryInfo',
      geminiErrorReply(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota.', retryInfo('7s')),
      { name: 'RateLimitError', isRetryable: true, status: 429, retryAfterMs: 7000 },
    ],
    [
      '429 with a Retry-After header',
      geminiErrorReply(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted.', undefined, {
        'retry-after': '3',
      }),
      { name: 'RateLimitError', isRetryable: true, status: 429, retryAfterMs: 3000 },
    ],
    [
      '500 internal',
      geminiErrorReply(500, 'INTERNAL', 'An internal error has occurred.'),
      { name: 'ServerError', isRetryable: true, status: 500 },
    ],
    [
      '503 unavailable',
      geminiErrorReply(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
      { name: 'ServerError', isRetryable: true, status: 503 },
    ],
  ])('maps %s, sent once (the SDK does not retry)', async (_name, reply, expected) => {
    server.enqueue(reply);
    const error = await failure(adapter.complete(request));
    expect(error).toMatchObject({ provider: 'gemini', ...expected });
    expect(server.requests).toHaveLength(1);
  });

  it('maps a wrong key (Gemini answers 400 API_KEY_INVALID) to AuthenticationError', async () => {
    const wrongKey = new GeminiAdapter({ apiKey: 'wrong', baseURL: server.origin });
    const error = await failure(wrongKey.complete(request));
    expect(error).toMatchObject({ name: 'AuthenticationError', status: 400, isRetryable: false });
  });

  it('maps HTTP errors when streaming too', async () => {
    server.enqueue(geminiErrorReply(429, 'RESOURCE_EXHAUSTED', 'quota', retryInfo('1.5s')));
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 1500 });
  });

  it('maps a refused connection to a retryable NetworkError', async () => {
    const closed = await startFakeGeminiServer();
    const origin = closed.origin;
    await closed.close();
    const error = await failure(
      new GeminiAdapter({ apiKey: FAKE_GEMINI_KEY, baseURL: origin }).complete(request),
    );
    expect(error).toMatchObject({ name: 'NetworkError', isRetryable: true });
  });
});

describe('GeminiAdapter stream failures', () => {
  const chunks = [
    { parts: [{ text: 'Hel' }] },
    { parts: [{ text: 'lo' }] },
    { parts: [{ text: '!' }], finishReason: 'STOP' },
  ];

  it('yields what arrived, then throws a retryable StreamError when the connection drops', async () => {
    server.enqueue(geminiSseReply(chunks, { breakAfter: 2 }));
    const seen: StreamEvent[] = [];
    const error = await failure(drain(adapter.stream(request), seen));
    expect(error).toMatchObject({ name: 'StreamError', isRetryable: true, provider: 'gemini' });
    expect(seen.map((e) => e.type)).toEqual(['stream_start', 'text_start', 'text_delta', 'text_delta']);
  });

  it('throws a StreamError when the stream ends cleanly but without a finish reason', async () => {
    server.enqueue(geminiSseReply(chunks.slice(0, 2)));
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({ name: 'StreamError', message: expect.stringContaining('finish reason') });
  });

  it('throws the typed error of an error chunk inside the stream', async () => {
    server.enqueue({
      kind: 'sse',
      separator: '\r\n\r\n',
      events: [
        { data: { candidates: [{ content: { role: 'model', parts: [{ text: 'a' }] }, index: 0 }] } },
        { data: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } },
      ],
    });
    const error = await failure(drain(adapter.stream(request)));
    expect(error).toMatchObject({ name: 'ServerError', status: 503, isRetryable: true });
  });
});

describe('GeminiAdapter timeouts and aborts', () => {
  it('times out a server that never answers', async () => {
    server.enqueue({ kind: 'hang' });
    const started = Date.now();
    const error = await failure(impatient.complete(request));
    expect(error).toMatchObject({ name: 'RequestTimeoutError', isRetryable: false });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('times out a stream that stalls mid-way', async () => {
    server.enqueue(
      geminiSseReply([{ parts: [{ text: 'a' }] }, { parts: [{ text: 'b' }], finishReason: 'STOP' }], {
        hangAfter: 1,
      }),
    );
    const seen: StreamEvent[] = [];
    const error = await failure(drain(impatient.stream(request), seen));
    expect(error).toMatchObject({ name: 'RequestTimeoutError' });
    expect(seen.map((e) => e.type)).toEqual(['stream_start', 'text_start', 'text_delta']);
  });

  it('aborts a hanging request through the caller’s AbortSignal', async () => {
    server.enqueue({ kind: 'hang' });
    const error = await failure(adapter.complete(request, { signal: AbortSignal.timeout(100) }));
    expect(error).toMatchObject({ name: 'AbortError', isRetryable: false });
  });

  it('aborts a stream mid-way through the caller’s AbortSignal', async () => {
    server.enqueue(
      geminiSseReply([{ parts: [{ text: 'a' }] }, { parts: [{ text: 'b' }], finishReason: 'STOP' }], {
        hangAfter: 1,
      }),
    );
    const controller = new AbortController();
    const seen: StreamEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of adapter.stream(request, { signal: controller.signal })) {
          seen.push(event);
          if (event.type === 'text_delta') setTimeout(() => controller.abort(), 50);
        }
      })(),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(seen.map((e) => e.type)).toEqual(['stream_start', 'text_start', 'text_delta']);
  });
});
