import type { Message, Response, ToolCallPart } from '../../../llm/index.js';
import type { ToolResult } from './turn.js';

/** Cut-off answers in a row after which the input ends with an error instead of asking yet again. */
export const MAX_CONSECUTIVE_TRUNCATIONS = 3;

/**
 * The tool call a `length` finish cut off, if the model was writing one: output stops at the end, so only the
 * message's last part can be incomplete (calls before it were finished). Pure.
 */
export function cutToolCall(response: Response): ToolCallPart | undefined {
  if (response.finishReason.reason !== 'length') return undefined;
  const last = response.message.content.at(-1);
  return last?.kind === 'tool_call' ? last : undefined;
}

/**
 * The message with the cut call's half-written arguments replaced by `{}`: they are not JSON, and providers
 * that take arguments back as text (OpenAI) may refuse a history holding them. The tool result says what
 * happened instead. Pure.
 */
export function withoutCutArguments(message: Message, cut: ToolCallPart): Message {
  return {
    ...message,
    content: message.content.map((part) =>
      part === cut ? { ...cut, arguments: {}, argumentsJson: '{}' } : part,
    ),
  };
}

/** What the model is told in place of the cut call's result; the call was not run. */
export function cutToolCallResult(call: ToolCallPart, maxTokens: number): ToolResult {
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    content:
      `Not run: your output reached its limit of ${maxTokens} tokens while you were writing the arguments of ` +
      `this ${call.toolName} call, so they were cut off. Do the same work in smaller steps: write a large file ` +
      'in several parts (create it with the first part, then add the rest with further calls), make several ' +
      'smaller edits instead of one large one, and keep explanations out of tool arguments.',
    isError: true,
  };
}

/** The result of each call of an answer the session gave up on after too many cut-off answers. */
export function stoppedToolCallResult(call: ToolCallPart): ToolResult {
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    content: `Not run: your answers kept reaching the output limit, so the session stopped this input.`,
    isError: true,
  };
}

/** Sent as a user message after an answer cut off outside any tool call. */
export function continueAfterCut(maxTokens: number): string {
  return (
    `Your previous answer was cut off at its limit of ${maxTokens} output tokens. Continue from where it ` +
    'stopped, in smaller steps; if you were about to call a tool, call it now with smaller arguments.'
  );
}
