import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  COMPACTION_SUMMARY_HEADER,
  compactionSplit,
  SUMMARIZATION_PROMPT,
} from '../../../../src/actors/agent/session/compact-history.js';
import { createSession } from '../../../../src/actors/agent/session/session.js';
import { Turns } from '../../../../src/actors/agent/session/turn.js';
import { ContextLengthError, messageText, type Request } from '../../../../src/llm/index.js';
import { collect, defineTestTool, kinds, scripted, testEnv, testProfile } from './session-fixtures.js';

/** Input tokens as a provider would count them: every character of the request, four to a token. */
function requestTokens(request: Request): number {
  const chars =
    (request.systemPrompt ?? '').length +
    JSON.stringify(request.tools ?? []).length +
    request.messages.reduce(
      (sum, m) =>
        sum +
        m.content.reduce(
          (s, p) => s + (p.kind === 'text' ? p.text.length : p.kind === 'tool_result' ? p.content.length : 0),
          0,
        ),
      0,
    );
  return Math.ceil(chars / 4);
}

const bigTool = defineTestTool(
  'big',
  z.object({ n: z.number() }),
  async ({ n }) => `${n}:${'x'.repeat(1200)}`,
);

describe('Session context window', () => {
  it('warns once when the real usage crosses the threshold', async () => {
    const { client } = scripted([
      {
        toolCalls: [{ name: 'echo', arguments: { text: 'a' } }],
        usage: { inputTokens: 700, outputTokens: 10 },
      },
      { text: 'done', usage: { inputTokens: 850, outputTokens: 10 } },
      { text: 'again', usage: { inputTokens: 870, outputTokens: 10 } },
    ]);
    const session = createSession({
      client,
      profile: testProfile({ contextWindow: 1_000 }),
      env: testEnv(),
      config: { enableCompaction: false },
    });
    const events = [...(await collect(session.submit('go'))), ...(await collect(session.submit('more')))];
    const warnings = events.filter((e) => e.kind === 'context_window_warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.data).toEqual({
      usage_fraction: 0.86,
      threshold: 0.8,
      message: 'Context usage at ~86% of context window',
    });
  });

  it('compacts older turns into a model-written summary instead of overflowing', async () => {
    const summaries: Request[] = [];
    const { adapter, client } = scripted((request, index) => {
      if (request.systemPrompt === SUMMARIZATION_PROMPT) {
        summaries.push(request);
        return {
          text: 'Called big three times; all outputs were x.',
          usage: { inputTokens: requestTokens(request) },
        };
      }
      const usage = { inputTokens: requestTokens(request), outputTokens: 5 };
      return index < 6
        ? { toolCalls: [{ name: 'big', arguments: { n: index } }], usage }
        : { text: 'finished', usage };
    });
    const session = createSession({
      client,
      profile: testProfile({ contextWindow: 1_500, toolList: [bigTool] }),
      env: testEnv(),
      config: { enableCompaction: true },
    });
    const events = await collect(session.submit('fill the context'));
    expect(kinds(events)).not.toContain('error');
    const compactions = events.filter((e) => e.kind === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]!.data['removed_turns']).toBeGreaterThan(0);
    expect(compactions[0]!.data['tokens_after']).toBeLessThan(
      compactions[0]!.data['tokens_before'] as number,
    );
    // The summariser read the transcript, the user's request included.
    expect(messageText(summaries[0]!.messages[0]!)).toContain('USER: fill the context');
    // Every request the loop sent fitted the window, and the first message after compaction is the summary.
    for (const call of adapter.calls) expect(requestTokens(call.request)).toBeLessThanOrEqual(1_500);
    const after = adapter.calls.find(
      (c) => c.kind === 'stream' && messageText(c.request.messages[0]!).startsWith(COMPACTION_SUMMARY_HEADER),
    );
    expect(messageText(after!.request.messages[0]!)).toContain('Called big three times');
    expect(session.history[0]!.kind).toBe('system');
    expect(events.filter((e) => e.kind === 'usage').map((e) => e.data['phase'])).toContain('compaction');
    expect(kinds(events).at(-1)).toBe('processing_end');
  });

  it('compacts and retries once when the provider reports a context overflow', async () => {
    const { adapter, client } = scripted((request, index) => {
      if (request.systemPrompt === SUMMARIZATION_PROMPT) return 'summary of the big outputs';
      if (index < 3) return { toolCalls: [{ name: 'big', arguments: { n: index } }] };
      if (index === 3)
        return { error: new ContextLengthError('prompt is too long', { provider: 'anthropic' }) };
      return 'answered after compaction';
    });
    const session = createSession({
      client,
      profile: testProfile({ toolList: [bigTool] }),
      env: testEnv(),
      config: { enableCompaction: true },
    });
    const events = await collect(session.submit('go'));
    expect(kinds(events)).not.toContain('error');
    expect(kinds(events)).toContain('compaction');
    expect(events.find((e) => e.kind === 'assistant_text_end')?.data['text']).toBe(
      'answered after compaction',
    );
    expect(adapter.calls.at(-1)!.request.messages.length).toBeLessThan(
      adapter.calls[3]!.request.messages.length,
    );
  });

  it('by default only warns as the context fills: no summarising call, the history is kept whole', async () => {
    const { adapter, client } = scripted((request, index) => {
      const usage = { inputTokens: requestTokens(request), outputTokens: 5 };
      return index < 6
        ? { toolCalls: [{ name: 'big', arguments: { n: index } }], usage }
        : { text: 'ok', usage };
    });
    const session = createSession({
      client,
      profile: testProfile({ contextWindow: 2_500, toolList: [bigTool] }),
      env: testEnv(),
    });
    const events = await collect(session.submit('fill the context'));
    expect(kinds(events)).not.toContain('compaction');
    expect(adapter.calls.every((call) => call.request.systemPrompt !== SUMMARIZATION_PROMPT)).toBe(true);
    expect(events.filter((e) => e.kind === 'context_window_warning')).toHaveLength(1);
    expect(session.history.filter((turn) => turn.kind === 'tool_results')).toHaveLength(6);
  });

  it('reports the overflow as an error when compaction is off (the default)', async () => {
    const { client } = scripted([
      { error: new ContextLengthError('prompt is too long', { provider: 'anthropic' }) },
    ]);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const events = await collect(session.submit('go'));
    expect(events.find((e) => e.kind === 'error')!.data).toMatchObject({
      code: 'llm.context_length',
      phase: 'llm',
    });
    expect(session.state).toBe('idle');
  });
});

describe('compactionSplit', () => {
  const result = Turns.toolResults([
    { toolCallId: 'c', toolName: 't', content: 'r'.repeat(400), isError: false },
  ]);
  const user = Turns.user('u'.repeat(400));

  it('keeps the most recent turns that fit and never starts the kept part on tool results', () => {
    expect(compactionSplit([user, user, user], 250)).toBe(1);
    expect(compactionSplit([user, user, result], 150)).toBe(3);
    expect(compactionSplit([user, result, user], 250)).toBe(2);
    expect(compactionSplit([user, user], 1_000)).toBe(0);
  });
});
