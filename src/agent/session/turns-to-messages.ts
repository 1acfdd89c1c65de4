import { Message } from '../../llm/index.js';
import type { Turn } from './turn.js';

/** The provider-neutral messages for a history (the adapters merge consecutive same-role messages). */
export function turnsToMessages(turns: readonly Turn[]): Message[] {
  const messages: Message[] = [];
  for (const turn of turns) appendTurnMessages(turn, messages);
  return messages;
}

/** Appends the messages of one turn to `messages`. */
export function appendTurnMessages(turn: Turn, messages: Message[]): void {
  switch (turn.kind) {
    case 'user':
    case 'steering':
    case 'system':
      messages.push(Message.user(turn.text));
      break;
    case 'assistant':
      messages.push(turn.message);
      break;
    case 'tool_results':
      for (const result of turn.results) {
        messages.push(Message.toolResult(result.toolCallId, result.content, result.isError, result.toolName));
      }
      break;
  }
}
