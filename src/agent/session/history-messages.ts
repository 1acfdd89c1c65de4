import type { Message } from '../../llm/index.js';
import type { Turn } from './turn.js';
import { appendTurnMessages } from './turns-to-messages.js';

/**
 * The provider messages of a history, converted incrementally: the loop only appends turns, so each request
 * converts just the new ones instead of the whole conversation (which made a long session quadratic). A history
 * array that was replaced (compaction) or shortened is converted again from scratch.
 */
export class HistoryMessages {
  private turns: readonly Turn[] | undefined;
  private converted = 0;
  private messages: Message[] = [];

  /**
   * The messages for `history`: the array this keeps appending to, lent to one request at a time (a request
   * holds it only for its call; whoever keeps a request copies it, decision 0041). A copy per round
   * was the session's largest allocation, growing with the conversation.
   */
  for(history: readonly Turn[]): Message[] {
    if (history !== this.turns || this.converted > history.length) {
      this.turns = history;
      this.converted = 0;
      this.messages = [];
    }
    for (; this.converted < history.length; this.converted++) {
      appendTurnMessages(history[this.converted]!, this.messages);
    }
    return this.messages;
  }
}
