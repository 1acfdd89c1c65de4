import type {
  ChatCompletionContentPart,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { definedFields } from '../../../shared/defined-fields.js';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ContentPart, Message } from '../../types.js';
import { resolveImageSource } from '../shared/resolve-image-source.js';

const AUDIO_FORMATS: Record<string, 'wav' | 'mp3'> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

function text(message: Message): string {
  return message.content.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

async function userPart(part: ContentPart, provider: string): Promise<ChatCompletionContentPart> {
  switch (part.kind) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      const source = await resolveImageSource(part, provider);
      const url = source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
      return { type: 'image_url', image_url: { url, ...definedFields({ detail: part.detail }) } };
    }
    case 'audio': {
      const format = AUDIO_FORMATS[part.mediaType];
      if (!format) {
        throw new InvalidRequestError(`${provider}: audio must be wav or mp3, not ${part.mediaType}`, {
          provider,
        });
      }
      return { type: 'input_audio', input_audio: { data: part.data, format } };
    }
    case 'document':
      return {
        type: 'file',
        file: { filename: part.name ?? 'document', file_data: `data:${part.mediaType};base64,${part.data}` },
      };
    default:
      throw new InvalidRequestError(`${provider}: a ${part.kind} part cannot appear in a user message`, {
        provider,
      });
  }
}

function assistantMessage(message: Message): ChatCompletionMessageParam {
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const part of message.content) {
    if (part.kind !== 'tool_call') continue;
    toolCalls.push({
      id: part.toolCallId,
      type: 'function',
      function: { name: part.toolName, arguments: part.argumentsJson },
    });
  }
  const content = text(message);
  // Thinking is not sent back: servers that return `reasoning_content` (DeepSeek, vLLM) reject it as input.
  return {
    role: 'assistant',
    content: content === '' && toolCalls.length > 0 ? null : content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

/**
 * Unified messages → Chat Completions `messages`: the system prompt first, system and developer messages as
 * `system` (few compatible servers know `developer`), user content as a string or parts, assistant turns with
 * `tool_calls`, and each tool result as its own `role: "tool"` message.
 */
export async function convertToOpenAICompatibleMessages(
  messages: readonly Message[],
  systemPrompt: string | undefined,
  provider = 'openai-compatible',
): Promise<ChatCompletionMessageParam[]> {
  const out: ChatCompletionMessageParam[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        out.push({ role: 'system', content: text(message) });
        break;
      case 'user': {
        const onlyText = message.content.every((part) => part.kind === 'text');
        if (onlyText) {
          out.push({ role: 'user', content: text(message) });
        } else {
          const content: ChatCompletionContentPart[] = [];
          for (const part of message.content) content.push(await userPart(part, provider));
          out.push({ role: 'user', content });
        }
        break;
      }
      case 'assistant':
        out.push(assistantMessage(message));
        break;
      case 'tool': {
        // Chat Completions tool messages take text only: a tool's images follow in one user message.
        const images: ChatCompletionContentPart[] = [];
        for (const part of message.content) {
          if (part.kind !== 'tool_result') continue;
          out.push({ role: 'tool', tool_call_id: part.toolCallId, content: part.content });
          for (const image of part.images ?? []) images.push(await userPart(image, provider));
        }
        if (images.length > 0) {
          out.push({
            role: 'user',
            content: [{ type: 'text', text: 'Images returned by the tool call(s) above:' }, ...images],
          });
        }
        break;
      }
    }
  }
  return out;
}
