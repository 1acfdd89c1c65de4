import { type ScriptedReply, type ScriptedServer, type SseEvent, startScriptedServer } from './sse.js';

/**
 * A local stand-in for generativelanguage.googleapis.com: `POST /v1beta/models/{model}:generateContent`
 * (JSON) and `:streamGenerateContent?alt=sse` (SSE), with Google's error envelope
 * (`{"error": {code, message, status, details}}`). Authentication is the `x-goog-api-key` header, as
 * @google/genai 2.32.0 sends it; a wrong key gets Gemini's real answer, a 400 with reason API_KEY_INVALID.
 */

export const FAKE_GEMINI_KEY = 'gemini-test-fake-key';

const ROUTE = /^\/(v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

export async function startFakeGeminiServer(apiKey = FAKE_GEMINI_KEY): Promise<ScriptedServer> {
  return startScriptedServer((request) => {
    const path = request.url.split('?')[0] ?? '';
    if (!ROUTE.test(path)) {
      return geminiErrorReply(404, 'NOT_FOUND', `The requested URL ${path} was not found on this server.`);
    }
    if (request.headers['x-goog-api-key'] !== apiKey) {
      return geminiErrorReply(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
        },
      ]);
    }
    return undefined;
  });
}

/** The model id and method a recorded request addressed. */
export function parseGeminiPath(url: string): { apiVersion: string; model: string; method: string } {
  const match = ROUTE.exec(url.split('?')[0] ?? '');
  if (!match) throw new Error(`not a Gemini model path: ${url}`);
  return { apiVersion: match[1]!, model: match[2]!, method: match[3]! };
}

export function geminiErrorReply(
  code: number,
  status: string,
  message: string,
  details?: Record<string, unknown>[],
  headers: Record<string, string> = {},
): ScriptedReply {
  return {
    kind: 'json',
    status: code,
    headers,
    body: { error: { code, message, status, ...(details ? { details } : {}) } },
  };
}

export interface GeminiUsage {
  prompt: number;
  candidates: number;
  cached?: number;
  thoughts?: number;
}

export function geminiUsage(usage: GeminiUsage): Record<string, unknown> {
  return {
    promptTokenCount: usage.prompt,
    candidatesTokenCount: usage.candidates,
    totalTokenCount: usage.prompt + usage.candidates + (usage.thoughts ?? 0),
    ...(usage.cached === undefined ? {} : { cachedContentTokenCount: usage.cached }),
    ...(usage.thoughts === undefined ? {} : { thoughtsTokenCount: usage.thoughts }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.prompt }],
  };
}

export interface GeminiChunkOptions {
  parts: Record<string, unknown>[];
  finishReason?: string;
  usage?: GeminiUsage;
  model?: string;
}

/** One `GenerateContentResponse`; in a stream each SSE event carries one of these. */
export function geminiResponse(options: GeminiChunkOptions): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { role: 'model', parts: options.parts }, index: 0 };
  if (options.finishReason) candidate.finishReason = options.finishReason;
  return {
    candidates: [candidate],
    ...(options.usage ? { usageMetadata: geminiUsage(options.usage) } : {}),
    modelVersion: options.model ?? 'gemini-2.5-pro',
    responseId: 'gemini-resp-1',
  };
}

export function geminiJsonReply(options: GeminiChunkOptions): ScriptedReply {
  return { kind: 'json', body: geminiResponse(options) };
}

export function geminiSseReply(
  chunks: GeminiChunkOptions[],
  extra: { breakAfter?: number; hangAfter?: number; delayMs?: number } = {},
): ScriptedReply {
  const events: SseEvent[] = chunks.map((chunk) => ({ data: geminiResponse(chunk) }));
  return { kind: 'sse', events, separator: '\r\n\r\n', ...extra };
}
