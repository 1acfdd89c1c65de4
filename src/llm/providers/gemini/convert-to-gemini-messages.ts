import { randomUUID } from 'node:crypto';
import type { Content, Part } from '@google/genai';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ContentPart, Message } from '../../types.js';
import { resolveImageSource } from '../shared/resolve-image-source.js';

export interface GeminiInput {
  systemInstruction?: Content;
  contents: Content[];
}

const PROVIDER = 'gemini';
const SYNTHETIC_ID = /^call_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Gemini does not always id its function calls; we make one up so tool results can find their call. */
export function syntheticToolCallId(): string {
  return `call_${randomUUID()}`;
}

/** Ids we made up mean nothing to Gemini and are not sent back. */
export function isSyntheticToolCallId(id: string): boolean {
  return SYNTHETIC_ID.test(id);
}

function text(message: Message): string {
  return message.content.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

async function mediaPart(part: ContentPart): Promise<Part> {
  switch (part.kind) {
    case 'image': {
      const source = await resolveImageSource(part, PROVIDER);
      if (source.kind === 'data') return { inlineData: { mimeType: source.mediaType, data: source.data } };
      return { fileData: { fileUri: source.url, mimeType: part.mediaType ?? 'image/png' } };
    }
    case 'audio':
    case 'document':
      return { inlineData: { mimeType: part.mediaType, data: part.data } };
    default:
      throw new InvalidRequestError(`gemini: a ${part.kind} part cannot appear in a user message`, {
        provider: PROVIDER,
      });
  }
}

async function userParts(message: Message): Promise<Part[]> {
  const parts: Part[] = [];
  for (const part of message.content)
    parts.push(part.kind === 'text' ? { text: part.text } : await mediaPart(part));
  return parts;
}

/**
 * A model turn. Gemini puts its thought signature on the part that follows the thinking (often a
 * functionCall); we keep it as a text-less thinking part just before that part, and put it back here.
 */
function modelParts(message: Message): Part[] {
  const parts: Part[] = [];
  let signature: string | undefined;
  const sign = (part: Part): Part => {
    if (signature === undefined) return part;
    const signed = { ...part, thoughtSignature: signature };
    signature = undefined;
    return signed;
  };
  for (const part of message.content) {
    if (part.kind === 'thinking') {
      if (part.text === '') signature = part.signature;
      else
        parts.push({
          text: part.text,
          thought: true,
          ...(part.signature ? { thoughtSignature: part.signature } : {}),
        });
    } else if (part.kind === 'text') {
      parts.push(sign({ text: part.text }));
    } else if (part.kind === 'tool_call') {
      const id = isSyntheticToolCallId(part.toolCallId) ? {} : { id: part.toolCallId };
      parts.push(sign({ functionCall: { ...id, name: part.toolName, args: part.arguments } }));
    }
    // redacted_thinking is Anthropic's; media in a model turn has no Gemini form.
  }
  return parts;
}

/**
 * Unified messages → Gemini `contents` + `systemInstruction`: system and developer text → systemInstruction;
 * assistant → role `model`; tool results → `functionResponse` parts in a user turn, addressed by function
 * name (from the result, else from the call it answers), string output wrapped as `{result}` (`{error}` when
 * the tool failed). Adjacent turns of one role are merged, as Gemini expects one turn per side.
 */
export async function convertToGeminiMessages(
  messages: readonly Message[],
  systemPrompt?: string,
): Promise<GeminiInput> {
  const system: string[] = systemPrompt ? [systemPrompt] : [];
  const contents: Content[] = [];
  const callNames = new Map<string, string>();
  const push = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(text(message));
        break;
      case 'user':
        push('user', await userParts(message));
        break;
      case 'assistant':
        for (const part of message.content)
          if (part.kind === 'tool_call') callNames.set(part.toolCallId, part.toolName);
        push('model', modelParts(message));
        break;
      case 'tool': {
        const parts: Part[] = [];
        for (const part of message.content) {
          if (part.kind !== 'tool_result') continue;
          const name = part.toolName ?? callNames.get(part.toolCallId);
          if (name === undefined) {
            throw new InvalidRequestError(
              `gemini: tool result ${part.toolCallId} answers no known function call`,
              {
                provider: PROVIDER,
              },
            );
          }
          const id = isSyntheticToolCallId(part.toolCallId) ? {} : { id: part.toolCallId };
          const response = part.isError ? { error: part.content } : { result: part.content };
          // Images travel inside the function response (Gemini 3's multimodal function responses).
          const media = (part.images ?? []).map((image) => {
            const source = resolveImageSource(image, PROVIDER);
            return source.kind === 'url'
              ? { fileData: { fileUri: source.url, mimeType: image.mediaType ?? 'image/png' } }
              : { inlineData: { data: source.data, mimeType: source.mediaType } };
          });
          parts.push({
            functionResponse: { ...id, name, response, ...(media.length > 0 ? { parts: media } : {}) },
          });
        }
        push('user', parts);
        break;
      }
    }
  }
  return {
    ...(system.length > 0 ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] } } : {}),
    contents,
  };
}
