import { describe, expect, it } from 'vitest';
import { LLMClient } from '../../../src/llm/client.js';
import { LLMError } from '../../../src/llm/errors/llm-error.js';
import { Message } from '../../../src/llm/message.js';
import type { CassetteEntry } from '../../../src/llm/middleware/cassette.js';
import { RecordMiddleware } from '../../../src/llm/middleware/record-middleware.js';
import { ReplayMiddleware } from '../../../src/llm/middleware/replay-middleware.js';
import { ScriptedAdapter } from '../../../src/llm/testing/scripted-adapter.js';
import type { Request } from '../../../src/llm/types.js';

const ask = (text: string, systemPrompt = 'today is Monday'): Request => ({
  model: 'm',
  systemPrompt,
  messages: [Message.user(text)],
});

async function recordTwo(): Promise<CassetteEntry[]> {
  let caller = 'plan';
  const recorder = new RecordMiddleware({
    caller: () => caller,
    transform: (entry) => ({ ...entry, request: { ...entry.request, model: 'recorded' } }),
  });
  const client = new LLMClient({
    adapters: [new ScriptedAdapter({ turns: ['one', 'two'] })],
    middleware: [recorder],
  });
  await client.complete(ask('first'));
  caller = 'code';
  await client.complete(ask('second'));
  return recorder.entries;
}

describe('record / replay options', () => {
  it('records the caller and stores the transformed entry', async () => {
    const entries = await recordTwo();
    expect(entries.map((e) => [e.caller, e.request.model])).toEqual([
      ['plan', 'recorded'],
      ['code', 'recorded'],
    ]);
  });

  it('matches on matchKey only, transforms the answer, and names the caller and field on a mismatch', async () => {
    const entries = await recordTwo();
    let caller = 'plan';
    const replay = new ReplayMiddleware({
      entries,
      caller: () => caller,
      matchKey: ({ systemPrompt: _ignored, model: _model, ...rest }) => rest,
      transform: (entry) => ({
        ...entry,
        response: { ...entry.response!, text: `${entry.response!.text}!` },
      }),
    });
    const client = new LLMClient({ adapters: [new ScriptedAdapter({ turns: [] })], middleware: [replay] });
    // Another day's system prompt still matches.
    expect((await client.complete(ask('first', 'today is Tuesday'))).text).toBe('one!');
    caller = 'code';
    const error = await client.complete(ask('changed')).catch((e: unknown) => e);
    expect(LLMError.isLLMError(error) && error.code).toBe('llm.replay_mismatch');
    expect((error as Error).message).toContain('of code');
    expect((error as Error).message).toContain('(by code) at `messages[0].content[0].text`');
  });

  it('keeps the messages a call was sent when it keeps raw entries', async () => {
    const recorder = new RecordMiddleware({ includeRaw: true });
    const client = new LLMClient({
      adapters: [new ScriptedAdapter({ turns: ['one', 'two'] })],
      middleware: [recorder],
    });
    const messages = [Message.user('first')];
    await client.complete({ model: 'm', messages });
    messages.push(Message.user('second'));
    await client.complete({ model: 'm', messages });
    expect(recorder.entries.map((entry) => entry.request.messages.length)).toEqual([1, 2]);
  });
});
