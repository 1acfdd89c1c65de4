import type {
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ContentPart, Message, ThinkingPart } from '../../types.js';
import { resolveImageSource } from '../shared/resolve-image-source.js';

export interface OpenAIInput {
  /** System messages (and the request's systemPrompt), joined; undefined when there are none. */
  instructions?: string;
  input: ResponseInputItem[];
}

const PROVIDER = 'openai';

/**
 * What we keep of a Responses reasoning item in a ThinkingPart's opaque `signature`: the item id and its
 * encrypted content, which is all the API needs to resume the model's reasoning when `store` is off.
 */
interface ReasoningSignature {
  id: string;
  encrypted_content?: string | null;
}

export function encodeReasoningSignature(item: { id: string; encrypted_content?: string | null }): string {
  const signature: ReasoningSignature = { id: item.id, encrypted_content: item.encrypted_content ?? null };
  return JSON.stringify(signature);
}

function decodeReasoningSignature(signature: string | undefined): ReasoningSignature | undefined {
  if (signature === undefined) return undefined;
  try {
    const parsed = JSON.parse(signature) as Partial<ReasoningSignature>;
    return typeof parsed.id === 'string' && parsed.id.startsWith('rs_')
      ? (parsed as ReasoningSignature)
      : undefined;
  } catch {
    return undefined;
  }
}

async function userContent(parts: readonly ContentPart[]): Promise<ResponseInputContent[]> {
  const content: ResponseInputContent[] = [];
  for (const part of parts) {
    switch (part.kind) {
      case 'text':
        content.push({ type: 'input_text', text: part.text });
        break;
      case 'image': {
        const source = await resolveImageSource(part, PROVIDER);
        const url = source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
        content.push({ type: 'input_image', image_url: url, detail: part.detail ?? 'auto' });
        break;
      }
      case 'document':
        content.push({
          type: 'input_file',
          filename: part.name ?? 'document',
          file_data: `data:${part.mediaType};base64,${part.data}`,
        });
        break;
      case 'audio':
        throw new InvalidRequestError('openai: the Responses API takes no audio input parts', {
          provider: PROVIDER,
        });
      default:
        throw new InvalidRequestError(`openai: a ${part.kind} part cannot appear in a user message`, {
          provider: PROVIDER,
        });
    }
  }
  return content;
}

function reasoningItem(part: ThinkingPart): ResponseReasoningItem | undefined {
  const signature = decodeReasoningSignature(part.signature);
  // Thinking from another provider cannot be replayed, nor can an item without its encrypted content: with
  // `store` off the API does not know the id and rejects the whole request.
  if (!signature?.encrypted_content) return undefined;
  return {
    type: 'reasoning',
    id: signature.id,
    summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
    encrypted_content: signature.encrypted_content,
  };
}

/** An assistant turn becomes several items in order: reasoning, text messages and function calls. */
function assistantItems(message: Message): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') items.push({ type: 'message', role: 'assistant', content: text });
    text = '';
  };
  for (const part of message.content) {
    if (part.kind === 'text') {
      text += part.text;
    } else if (part.kind === 'tool_call') {
      flush();
      items.push({
        type: 'function_call',
        call_id: part.toolCallId,
        name: part.toolName,
        arguments: part.argumentsJson,
      });
    } else if (part.kind === 'thinking') {
      flush();
      const item = reasoningItem(part);
      if (item) items.push(item);
    }
    // redacted_thinking belongs to Anthropic; media in an assistant turn has no Responses form.
  }
  flush();
  return items;
}

function systemText(message: Message): string {
  return message.content
    .filter((part) => part.kind === 'text')
    .map((part) => (part.kind === 'text' ? part.text : ''))
    .join('');
}

/**
 * Unified messages → Responses `instructions` + `input` items: system → instructions; developer and user →
 * `message` items; assistant → `message` / `function_call` / `reasoning` items; tool → `function_call_output`.
 */
export async function convertToOpenAIMessages(
  messages: readonly Message[],
  systemPrompt?: string,
): Promise<OpenAIInput> {
  const system: string[] = systemPrompt ? [systemPrompt] : [];
  const input: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(systemText(message));
        break;
      case 'developer':
        input.push({ type: 'message', role: 'developer', content: systemText(message) });
        break;
      case 'user':
        input.push({ type: 'message', role: 'user', content: await userContent(message.content) });
        break;
      case 'assistant':
        input.push(...assistantItems(message));
        break;
      case 'tool':
        for (const part of message.content) {
          if (part.kind !== 'tool_result') continue;
          // With images the output is a list of input parts; plain text stays a string.
          const output: string | ResponseFunctionCallOutputItemList =
            part.images && part.images.length > 0
              ? ((await userContent([
                  { kind: 'text', text: part.content },
                  ...part.images,
                ])) as ResponseFunctionCallOutputItemList)
              : part.content;
          input.push({ type: 'function_call_output', call_id: part.toolCallId, output });
        }
        break;
    }
  }
  return { ...(system.length > 0 ? { instructions: system.join('\n\n') } : {}), input };
}
