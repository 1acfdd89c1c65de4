import type { ContentPart, Message as MessageData, ThinkingPart, ToolCallPart } from './types.js';

/**
 * Factories for the common messages (`Message.user(...)`). Messages stay plain data; the value
 * `Message` and the type `Message` share a name so both `Message.user('hi')` and `m: Message` read naturally.
 *
 * @example
 * const messages = [Message.system('Be brief.'), Message.user('Hello')];
 */
export const Message = {
  system(text: string): MessageData {
    return { role: 'system', content: [{ kind: 'text', text }] };
  },
  developer(text: string): MessageData {
    return { role: 'developer', content: [{ kind: 'text', text }] };
  },
  user(text: string): MessageData {
    return { role: 'user', content: [{ kind: 'text', text }] };
  },
  assistant(text: string): MessageData {
    return { role: 'assistant', content: [{ kind: 'text', text }] };
  },
  toolResult(toolCallId: string, content: string, isError = false, toolName?: string): MessageData {
    return {
      role: 'tool',
      toolCallId,
      content: [{ kind: 'tool_result', toolCallId, content, isError, ...(toolName ? { toolName } : {}) }],
    };
  },
} as const;
export type Message = MessageData;

/** Concatenated text parts. */
export function messageText(message: { content: readonly ContentPart[] }): string {
  let text = '';
  for (const part of message.content) if (part.kind === 'text') text += part.text;
  return text;
}

export function messageToolCalls(message: { content: readonly ContentPart[] }): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.kind === 'tool_call');
}

export function hasToolCalls(message: { content: readonly ContentPart[] }): boolean {
  return message.content.some((part) => part.kind === 'tool_call');
}

/** Concatenated thinking text, or undefined when there is none. */
export function messageReasoning(message: { content: readonly ContentPart[] }): string | undefined {
  const thinking = message.content.filter((part): part is ThinkingPart => part.kind === 'thinking');
  return thinking.length === 0 ? undefined : thinking.map((part) => part.text).join('');
}

/** Builds a tool_call part from the model's raw argument text; non-object JSON becomes `{}`, the text is kept. */
export function toolCallPart(toolCallId: string, toolName: string, argumentsJson: string): ToolCallPart {
  let parsed: unknown;
  try {
    parsed = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
  } catch {
    parsed = {};
  }
  const args =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  return { kind: 'tool_call', toolCallId, toolName, arguments: args, argumentsJson };
}
