import { describe, expect, it } from 'vitest';
import { Message } from '../../../../src/llm/message.js';
import {
  convertToGeminiMessages,
  isSyntheticToolCallId,
  syntheticToolCallId,
} from '../../../../src/llm/providers/gemini/convert-to-gemini-messages.js';

describe('convertToGeminiMessages', () => {
  it('rejects a tool result whose function name cannot be found', async () => {
    await expect(convertToGeminiMessages([Message.toolResult('call_x', 'out')])).rejects.toMatchObject({
      name: 'InvalidRequestError',
    });
  });

  it('merges adjacent turns of one role and leaves no system instruction when there is none', async () => {
    const input = await convertToGeminiMessages([
      Message.user('a'),
      Message.user('b'),
      Message.assistant('c'),
    ]);
    expect(input).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
        { role: 'model', parts: [{ text: 'c' }] },
      ],
    });
  });

  it('puts a text-less thinking part’s signature on the next text part', async () => {
    const input = await convertToGeminiMessages([
      {
        role: 'assistant',
        content: [
          { kind: 'thinking', text: '', signature: 'sig' },
          { kind: 'text', text: 'answer' },
        ],
      },
    ]);
    expect(input.contents).toEqual([{ role: 'model', parts: [{ text: 'answer', thoughtSignature: 'sig' }] }]);
  });

  it('recognises only the ids it made up as synthetic', () => {
    expect(isSyntheticToolCallId(syntheticToolCallId())).toBe(true);
    expect(isSyntheticToolCallId('call_abc')).toBe(false);
    expect(isSyntheticToolCallId('fc-1')).toBe(false);
  });
});
