import type { Anthropic } from '@anthropic-ai/sdk';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ContentPart, ImagePart, Message } from '../../types.js';
import { resolveImageSource } from '../shared/resolve-image-source.js';

type Block = Anthropic.ContentBlockParam;
type Role = 'user' | 'assistant';

export interface AnthropicConversation {
  system: Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
}

function imageBlock(part: ImagePart): Block {
  const source = resolveImageSource(part, 'anthropic');
  return source.kind === 'url'
    ? { type: 'image', source: { type: 'url', url: source.url } }
    : {
        type: 'image',
        source: { type: 'base64', media_type: source.mediaType as 'image/png', data: source.data },
      };
}

/** One unified part as Anthropic blocks; parts Anthropic cannot take back are dropped or rejected. */
function toBlocks(part: ContentPart, role: Role): Block[] {
  switch (part.kind) {
    case 'text':
      // The API rejects empty text blocks.
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'image':
      return [imageBlock(part)];
    case 'document':
      if (part.mediaType === 'text/plain') {
        return [
          {
            type: 'document',
            source: {
              type: 'text',
              media_type: 'text/plain',
              data: Buffer.from(part.data, 'base64').toString('utf8'),
            },
          },
        ];
      }
      return [
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data } },
      ];
    case 'audio':
      throw new InvalidRequestError('Anthropic models do not accept audio input.', { provider: 'anthropic' });
    case 'tool_call':
      return [{ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.arguments }];
    case 'tool_result': {
      const images = (part.images ?? []).map(imageBlock) as Anthropic.ImageBlockParam[];
      const content: string | Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> =
        images.length === 0
          ? part.content
          : [...(part.content === '' ? [] : [{ type: 'text' as const, text: part.content }]), ...images];
      return [{ type: 'tool_result', tool_use_id: part.toolCallId, content, is_error: part.isError }];
    }
    case 'thinking':
      // Thinking without Anthropic's signature (another provider's, or a summary) cannot be sent back.
      if (role !== 'assistant' || part.signature === undefined) return [];
      return [{ type: 'thinking', thinking: part.text, signature: part.signature }];
    case 'redacted_thinking':
      return role === 'assistant' ? [{ type: 'redacted_thinking', data: part.data }] : [];
  }
}

/**
 * Unified messages to the Messages API shape: system and developer text goes to `system`; tool results become
 * `tool_result` blocks in a user turn, placed before any other content of that turn; consecutive same-role
 * turns are merged, because the API requires strict user/assistant alternation starting with a user turn.
 */
export function convertToAnthropicMessages(
  messages: readonly Message[],
  systemPrompt?: string,
): AnthropicConversation {
  const system: Anthropic.TextBlockParam[] = [];
  if (systemPrompt) system.push({ type: 'text', text: systemPrompt });
  const turns: Array<{ role: Role; content: Block[] }> = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      for (const part of message.content)
        if (part.kind === 'text' && part.text !== '') system.push({ type: 'text', text: part.text });
      continue;
    }
    const role: Role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = message.content.flatMap((part) => toBlocks(part, role));
    if (blocks.length === 0) continue;
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  for (const turn of turns) {
    if (turn.role === 'user') {
      const results = turn.content.filter((block) => block.type === 'tool_result');
      const rest = turn.content.filter((block) => block.type !== 'tool_result');
      turn.content = [...results, ...rest];
    }
  }
  if (turns[0]?.role === 'assistant')
    turns.unshift({ role: 'user', content: [{ type: 'text', text: '(continue)' }] });
  return { system, messages: turns };
}
