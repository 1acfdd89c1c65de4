import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getProfile } from '../../../../src/actors/agent/profiles/get-profile.js';
import {
  DEFAULT_AGENT_MAX_TOKENS,
  MIN_OUTPUT_TOKENS,
  outputBudget,
} from '../../../../src/actors/agent/session/output-budget.js';
import { createSession } from '../../../../src/actors/agent/session/session.js';
import {
  createResponse,
  type Message,
  messageText,
  type Request,
  type Response,
  toolCallPart,
} from '../../../../src/llm/index.js';
import type { ScriptedTurn } from '../../../../src/llm/testing/index.js';
import { collect, defineTestTool, kinds, scripted, testEnv, testProfile } from './session-fixtures.js';

/** A recording write tool: what ran, in order. */
function writeTool() {
  const ran: string[] = [];
  const tool = defineTestTool(
    'write_file',
    z.object({ path: z.string(), content: z.string() }),
    async ({ path, content }) => {
      ran.push(`${path}:${content.length}`);
      return `wrote ${path}`;
    },
  );
  return { tool, ran };
}

/** An answer stopped by the output limit: `parts` as the model got to write them. */
function cutAnswer(parts: Message['content']): Response {
  return createResponse({
    id: 'cut',
    model: 'claude-sonnet-4-6',
    provider: 'anthropic',
    message: { role: 'assistant', content: parts },
    finishReason: { reason: 'length', raw: 'max_tokens' },
    usage: { inputTokens: 100, outputTokens: 4096, totalTokens: 4196 },
  });
}

const half = '{"path": "big.ts", "content": "export const a = 1;\\nexport const b';

describe('the output budget of an agent turn', () => {
  it.each([
    ['a catalog model gets its own output limit', 'claude-sonnet-4-6', undefined, 64_000],
    ['so does another provider’s', 'gpt-5.2', undefined, 128_000],
    ['a model the catalog does not know gets the agent default', 'my-local-model', undefined, 16_384],
    ['a node’s max_tokens wins', 'claude-sonnet-4-6', 2_000, 2_000],
  ])('%s', async (_name, model, maxTokens, expected) => {
    const { adapter, client } = scripted(['done']);
    const session = createSession({
      client,
      profile: getProfile('anthropic', { model }),
      env: testEnv(),
      model,
      ...(maxTokens !== undefined ? { config: { maxTokens } } : {}),
    });
    await collect(session.submit('go'));
    expect(adapter.calls[0]!.request.maxTokens).toBe(expected);
    expect(DEFAULT_AGENT_MAX_TOKENS).toBeGreaterThanOrEqual(16_000);
  });

  it('asks for no more than the context window leaves after the input', async () => {
    const { adapter, client } = scripted([
      { toolCalls: [{ name: 'echo', arguments: { text: 'a' } }], usage: { inputTokens: 30_000 } },
      'done',
    ]);
    const session = createSession({
      client,
      profile: testProfile({ contextWindow: 40_000 }),
      env: testEnv(),
    });
    await collect(session.submit('go'));
    const second = adapter.calls[1]!.request.maxTokens!;
    // 30,000 measured (+ the estimate's slack) out of 40,000: well under the model's 64,000.
    expect(second).toBeLessThan(40_000 - 30_000);
    expect(second).toBeGreaterThan(MIN_OUTPUT_TOKENS);
  });

  it.each([
    [64_000, 200_000, 10_000, 0, 64_000],
    [64_000, 200_000, 150_000, 0, 50_000],
    [64_000, 200_000, 150_000, 8_000, 40_000],
    [64_000, 200_000, 0, 120_000, 50_000],
    [64_000, 200_000, 199_000, 0, MIN_OUTPUT_TOKENS],
    [500, 200_000, 199_000, 0, 500],
  ])(
    'outputBudget(limit %i, window %i, measured %i + estimated %i) = %i',
    (limit, window, measured, estimated, expected) => {
      expect(outputBudget(limit, window, { measured, estimated })).toBe(expected);
    },
  );
});

describe('an answer cut off at the output limit', () => {
  it('never runs a half-written tool call: the model is told and asked for smaller steps', async () => {
    const { tool, ran } = writeTool();
    const requests: Request[] = [];
    const turns: ScriptedTurn[] = [
      cutAnswer([{ kind: 'text', text: 'Writing the file.' }, toolCallPart('call_cut', 'write_file', half)]),
      { toolCalls: [{ name: 'write_file', arguments: { path: 'big.ts', content: 'part 1' } }] },
      'Written in parts.',
    ];
    const { client } = scripted((request, index) => {
      requests.push({ ...request, messages: request.messages.slice() });
      return turns[index]!;
    });
    const session = createSession({ client, profile: testProfile({ toolList: [tool] }), env: testEnv() });
    const events = await collect(session.submit('write big.ts'));
    expect(ran).toEqual(['big.ts:6']);
    const cut = events.find((e) => e.kind === 'output_truncated');
    expect(cut?.data).toMatchObject({
      max_tokens: 64_000,
      tool_name: 'write_file',
      tool_call_id: 'call_cut',
      message: expect.stringContaining('not run'),
    });
    // No TOOL_CALL_START for the cut call: only the second, whole one ran.
    expect(events.filter((e) => e.kind === 'tool_call_start').map((e) => e.data['tool_call_id'])).toEqual([
      'call_2_1',
    ]);
    // The next request carries the call with its broken arguments dropped, and a result saying why.
    const next = requests[1]!.messages;
    const call = next.flatMap((m) => m.content).find((p) => p.kind === 'tool_call');
    expect(call).toMatchObject({ toolCallId: 'call_cut', argumentsJson: '{}', arguments: {} });
    const result = next.flatMap((m) => m.content).find((p) => p.kind === 'tool_result');
    expect(result).toMatchObject({ toolCallId: 'call_cut', isError: true });
    expect(result?.kind === 'tool_result' ? result.content : '').toMatch(
      /^Not run: your output reached its limit of 64000 tokens .* smaller steps/,
    );
    expect(kinds(events)).not.toContain('error');
    expect(kinds(events).at(-1)).toBe('processing_end');
  });

  it('runs the calls finished before the cut one', async () => {
    const { tool, ran } = writeTool();
    const { client } = scripted([
      cutAnswer([
        toolCallPart('whole', 'write_file', '{"path":"a.ts","content":"ok"}'),
        toolCallPart('cut', 'write_file', '{"path":"b.ts","con'),
      ]),
      'done',
    ]);
    const session = createSession({ client, profile: testProfile({ toolList: [tool] }), env: testEnv() });
    await collect(session.submit('go'));
    expect(ran).toEqual(['a.ts:2']);
    const results = session.history.find((t) => t.kind === 'tool_results');
    expect(
      results?.kind === 'tool_results' ? results.results.map((r) => [r.toolCallId, r.isError]) : [],
    ).toEqual([
      ['whole', false],
      ['cut', true],
    ]);
  });

  it('asks the model to continue an answer cut off in its text', async () => {
    const { adapter, client } = scripted([cutAnswer([{ kind: 'text', text: 'The plan is: first' }]), 'done']);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const events = await collect(session.submit('plan it'));
    expect(events.find((e) => e.kind === 'output_truncated')?.data).toEqual({
      max_tokens: 64_000,
      message: 'output cut off at 64000 tokens: the agent was asked to continue',
    });
    const last = adapter.calls[1]!.request.messages.at(-1)!;
    expect(messageText(last)).toMatch(
      /^Your previous answer was cut off at its limit of 64000 output tokens/,
    );
    expect(events.find((e) => e.kind === 'assistant_text_end' && e.data['text'] === 'done')).toBeDefined();
  });

  it('gives up with an error after three cut-off answers in a row, leaving a valid history', async () => {
    const { tool, ran } = writeTool();
    const { adapter, client } = scripted((_request, index) =>
      cutAnswer([toolCallPart(`cut${index}`, 'write_file', half)]),
    );
    const session = createSession({ client, profile: testProfile({ toolList: [tool] }), env: testEnv() });
    const events = await collect(session.submit('go'));
    expect(adapter.calls).toHaveLength(3);
    expect(ran).toEqual([]);
    expect(events.filter((e) => e.kind === 'output_truncated')).toHaveLength(3);
    expect(events.find((e) => e.kind === 'error')?.data).toMatchObject({ code: 'agent.output_limit' });
    // Every tool call of the history has its result, so the session can take another input.
    const calls = session.history.flatMap((t) =>
      t.kind === 'assistant' ? t.message.content.filter((p) => p.kind === 'tool_call') : [],
    );
    const results = session.history.flatMap((t) => (t.kind === 'tool_results' ? t.results : []));
    expect(results.map((r) => r.toolCallId)).toEqual(
      calls.map((c) => c.kind === 'tool_call' && c.toolCallId),
    );
    expect(session.state).toBe('idle');
  });
});
