import {
  anthropicErrorReply,
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  type FakeBlock,
} from '../fake-anthropic-server.js';
import {
  FAKE_OPENAI_KEY,
  functionCallItem,
  messageItem,
  openAIErrorReply,
  responsesSseReply,
  responsesStream,
  streamedFunctionCallEvents,
  streamedMessageEvents,
} from '../fake-openai-server.js';
import { type ScriptedServer, startScriptedServer } from '../sse.js';
import { AnthropicPromptCache } from './anthropic-prompt-cache.js';
import { OpenAIPromptCache, responsesPromptText } from './openai-prompt-cache.js';
import { countTokens } from './stand-in-tokenizer.js';

/** One answer of the scripted model: a tool call, or the final text. */
export type ScriptedAnswer = { tool: string; args: Record<string, unknown> } | { text: string };

/** The answer to the `index`-th request (0-based). */
export type AnswerScript = (index: number) => ScriptedAnswer;

const outputTokens = (answer: ScriptedAnswer): number =>
  'text' in answer ? countTokens(answer.text) : countTokens(JSON.stringify(answer.args)) + 10;

/**
 * A stand-in for the Anthropic Messages API whose usage is computed from each request by
 * {@link AnthropicPromptCache}: cache writes at the request's `cache_control` breakpoints, reads when a later
 * request repeats a cached prefix. Answers come from `script`.
 */
export async function startCachingAnthropicServer(script: AnswerScript): Promise<ScriptedServer> {
  const cache = new AnthropicPromptCache();
  let index = 0;
  return startScriptedServer((request) => {
    if ((request.url.split('?')[0] ?? '') !== '/v1/messages') {
      return anthropicErrorReply(404, 'not_found_error', `Not found: ${request.url}`);
    }
    const keyed =
      request.headers['x-api-key'] === FAKE_ANTHROPIC_KEY ||
      request.headers.authorization === `Bearer ${FAKE_ANTHROPIC_KEY}`;
    if (!keyed) {
      return anthropicErrorReply(401, 'authentication_error', 'invalid x-api-key');
    }
    const body = request.body as Record<string, unknown>;
    const answer = script(index);
    const usage = cache.account(body);
    const content: FakeBlock[] =
      'text' in answer
        ? [{ type: 'text', text: answer.text }]
        : [{ type: 'tool_use', id: `toolu_${index}`, name: answer.tool, input: answer.args }];
    index += 1;
    return anthropicStreamReply(
      {
        model: String(body['model']),
        content,
        stop_reason: 'text' in answer ? 'end_turn' : 'tool_use',
        usage: { ...usage, output_tokens: outputTokens(answer) },
      },
      { chunkSize: 256 },
    );
  });
}

/**
 * A stand-in for the OpenAI Responses API whose `input_tokens_details.cached_tokens` comes from
 * {@link OpenAIPromptCache} (automatic prefix caching); with `caching: false` nothing is ever cached, which is
 * what every request would cost without it.
 */
export async function startCachingOpenAIServer(
  script: AnswerScript,
  options: { caching: boolean } = { caching: true },
): Promise<ScriptedServer & { baseURL: string }> {
  const cache = new OpenAIPromptCache();
  let index = 0;
  const server = await startScriptedServer((request) => {
    if ((request.url.split('?')[0] ?? '') !== '/v1/responses') {
      return openAIErrorReply(404, { message: `Invalid URL ${request.url}`, type: 'invalid_request_error' });
    }
    if (request.headers.authorization !== `Bearer ${FAKE_OPENAI_KEY}`) {
      return openAIErrorReply(401, { message: 'Incorrect API key provided', type: 'invalid_request_error' });
    }
    const body = request.body as Record<string, unknown>;
    const model = String(body['model']);
    const prompt = responsesPromptText(body);
    const usage = options.caching
      ? cache.account(model, prompt)
      : { input_tokens: countTokens(prompt), cached_tokens: 0 };
    const answer = script(index);
    const callId = `call_${index}`;
    index += 1;
    const tokens = { input: usage.input_tokens, output: outputTokens(answer), cached: usage.cached_tokens };
    if ('text' in answer) {
      return responsesSseReply(
        responsesStream(streamedMessageEvents(0, [answer.text]), {
          model,
          output: [messageItem(answer.text)],
          usage: tokens,
        }),
      );
    }
    const args = JSON.stringify(answer.args);
    return responsesSseReply(
      responsesStream(streamedFunctionCallEvents(0, callId, answer.tool, [args]), {
        model,
        output: [functionCallItem(callId, answer.tool, args)],
        usage: tokens,
      }),
    );
  });
  return Object.assign(server, { baseURL: `${server.origin}/v1` });
}
