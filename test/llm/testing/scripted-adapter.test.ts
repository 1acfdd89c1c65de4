import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Message } from '../../../src/llm/message.js';
import { ScriptedAdapter } from '../../../src/llm/testing/scripted-adapter.js';

describe('ScriptedAdapter delays', () => {
  it('leaves no abort listener behind on a long-lived signal', async () => {
    const adapter = new ScriptedAdapter({ turns: () => ({ text: 'ok', delayMs: 1 }) });
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) {
      await adapter.complete({ model: 'm', messages: [Message.user('hi')] }, { signal: controller.signal });
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('still rejects with the signal reason when aborted during the delay', async () => {
    const adapter = new ScriptedAdapter({ turns: () => ({ text: 'late', delayMs: 5000 }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(
      adapter.complete({ model: 'm', messages: [Message.user('hi')] }, { signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});

describe('ScriptedAdapter calls', () => {
  // The usual tool loop appends to the one messages array it lends every call (decision 0041).
  it.each(['complete', 'stream'] as const)('records the messages each %s call was sent', async (kind) => {
    const adapter = new ScriptedAdapter({ turns: ['one', 'two'] });
    const messages = [Message.user('first')];
    for (const text of ['second', 'third']) {
      const request = { model: 'm', messages };
      if (kind === 'complete') await adapter.complete(request);
      else for await (const _event of adapter.stream(request)) void _event;
      messages.push(Message.user(text));
    }
    expect(adapter.calls.map((call) => [call.kind, call.request.messages.length])).toEqual([
      [kind, 1],
      [kind, 2],
    ]);
  });
});
