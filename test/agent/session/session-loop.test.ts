import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSession } from '../../../src/agent/session/session.js';
import { AuthenticationError, InvalidRequestError, messageText } from '../../../src/llm/index.js';
import {
  collect,
  defineTestTool,
  echoTool,
  kinds,
  scripted,
  testEnv,
  testProfile,
} from './session-fixtures.js';

describe('Session loop', () => {
  it('answers a text-only turn with the documented event sequence and data keys', async () => {
    const { client } = scripted(['Hello there']);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    expect(session.state).toBe('idle');
    const events = await collect(session.submit('Hi'));
    expect(kinds(events)).toEqual([
      'session_start',
      'user_input',
      'assistant_text_start',
      'assistant_text_delta',
      'assistant_text_delta',
      'assistant_text_delta',
      'assistant_text_end',
      'usage',
      'processing_end',
    ]);
    expect(events[0]!.data).toEqual({ state: 'idle' });
    expect(events[1]!.data).toEqual({ text: 'Hi' });
    const deltas = events.filter((e) => e.kind === 'assistant_text_delta').map((e) => e.data['text']);
    expect(deltas.join('')).toBe('Hello there');
    expect(events[6]!.data).toEqual({ text: 'Hello there' });
    expect(events[7]!.data).toMatchObject({
      model: 'claude-sonnet-4-6',
      provider: 'anthropic',
      phase: 'turn',
    });
    const usage = events[7];
    expect(usage?.kind).toBe('usage');
    expect(usage?.kind === 'usage' && usage.data.cost_usd).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.sessionId).toBe(session.id);
      expect(Date.parse(event.timestamp)).not.toBeNaN();
    }
    expect(session.state).toBe('idle');
    expect(session.history.map((t) => t.kind)).toEqual(['user', 'assistant']);
    expect(session.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
  });

  it('runs tool calls, appends their results, and loops until a text-only answer', async () => {
    const { adapter, client } = scripted([
      { toolCalls: [{ name: 'echo', arguments: { text: 'one' }, id: 'c1' }] },
      'done',
    ]);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const events = await collect(session.submit('go'));
    const start = events.find((e) => e.kind === 'tool_call_start')!;
    expect(start.data).toEqual({ tool_name: 'echo', tool_call_id: 'c1', arguments: { text: 'one' } });
    const end = events.find((e) => e.kind === 'tool_call_end')!;
    expect(end.data).toEqual({
      tool_name: 'echo',
      tool_call_id: 'c1',
      output: 'echo: one',
      truncated_output: 'echo: one',
      is_error: false,
    });
    expect(session.history.map((t) => t.kind)).toEqual(['user', 'assistant', 'tool_results', 'assistant']);
    const second = adapter.calls[1]!.request;
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second.messages[2]!.content[0]).toMatchObject({ kind: 'tool_result', content: 'echo: one' });
    // The profile's tools, then the subagent tools every session adds.
    expect(second.tools?.map((t) => t.name)).toEqual([
      'echo',
      'spawn_agent',
      'send_input',
      'wait',
      'close_agent',
    ]);
    expect(second.tools?.[1]?.parameters).toMatchObject({ type: 'object', required: ['task'] });
    expect(second.toolChoice).toEqual({ mode: 'auto' });
    expect(second.systemPrompt).toContain('Test agent in');
  });

  it('executes the calls of one round concurrently', async () => {
    let running = 0;
    let release: () => void = () => {};
    const bothRunning = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Each call waits until both are running at once: run one after the other, the first would never finish.
    const barrier = defineTestTool('barrier', z.object({ n: z.number() }), async ({ n }) => {
      running += 1;
      if (running === 2) release();
      await bothRunning;
      return `passed ${n}`;
    });
    const { client } = scripted([
      {
        toolCalls: [
          { name: 'barrier', arguments: { n: 1 } },
          { name: 'barrier', arguments: { n: 2 } },
        ],
      },
      'ok',
    ]);
    const session = createSession({ client, profile: testProfile({ toolList: [barrier] }), env: testEnv() });
    const events = await collect(session.submit('go'));
    const ends = events.filter((e) => e.kind === 'tool_call_end').map((e) => e.data['output']);
    expect(ends.sort()).toEqual(['passed 1', 'passed 2']);
    const results = session.history[2];
    expect(results?.kind === 'tool_results' && results.results.map((r) => r.content)).toEqual([
      'passed 1',
      'passed 2',
    ]);
  });

  it('runs the calls one after another when the profile does not support parallel calls', async () => {
    const log: string[] = [];
    const step = defineTestTool('step', z.object({ n: z.number() }), async ({ n }) => {
      log.push(`start ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
      log.push(`end ${n}`);
      return `step ${n}`;
    });
    const { client } = scripted([
      { toolCalls: [1, 2, 3].map((n) => ({ name: 'step', arguments: { n } })) },
      'ok',
    ]);
    const profile = testProfile({ toolList: [step], supportsParallelToolCalls: false });
    await collect(createSession({ client, profile, env: testEnv() }).submit('go'));
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('continues from a given history (a thread reused across nodes)', async () => {
    const first = scripted(['first answer']);
    const a = createSession({ client: first.client, profile: testProfile(), env: testEnv() });
    await collect(a.submit('remember 7'));
    const second = scripted(['7']);
    const b = createSession({
      client: second.client,
      profile: testProfile(),
      env: testEnv(),
      history: a.history,
    });
    await collect(b.submit('what number?'));
    expect(second.adapter.calls[0]!.request.messages.map(messageText)).toEqual([
      'remember 7',
      'first answer',
      'what number?',
    ]);
    expect(a.history).toHaveLength(2);
  });

  it('turns an unknown tool, bad arguments and a throwing tool into error results for the model', async () => {
    const broken = defineTestTool('broken', z.object({}), async () => {
      throw new Error('disk on fire');
    });
    const { adapter, client } = scripted([
      {
        toolCalls: [
          { name: 'nope', arguments: {}, id: 'a' },
          { name: 'echo', arguments: { text: 3 }, id: 'b' },
          { name: 'broken', arguments: {}, id: 'c' },
        ],
      },
      'recovered',
    ]);
    const session = createSession({
      client,
      profile: testProfile({ toolList: [echoTool, broken] }),
      env: testEnv(),
    });
    const events = await collect(session.submit('go'));
    const ends = events.filter((e) => e.kind === 'tool_call_end').map((e) => e.data);
    expect(ends.every((d) => d['is_error'] === true)).toBe(true);
    const byId = Object.fromEntries(ends.map((d) => [d['tool_call_id'], String(d['output'])]));
    expect(byId['a']).toBe('Unknown tool: nope');
    expect(byId['b']).toMatch(/^Invalid arguments for tool: echo/);
    expect(byId['c']).toBe('Tool error (broken): disk on fire');
    expect(adapter.calls).toHaveLength(2);
    expect(kinds(events).at(-1)).toBe('processing_end');
  });

  it('accepts sequential submits on the same history and refuses one while processing', async () => {
    const { adapter, client } = scripted([{ text: 'first', delayMs: 30 }, 'second']);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const first = session.submit('one');
    expect(session.state).toBe('processing');
    expect(() => session.submit('again')).toThrow(expect.objectContaining({ code: 'agent.session_busy' }));
    await collect(first);
    const events = await collect(session.submit('two'));
    expect(kinds(events)).not.toContain('session_start');
    expect(adapter.calls[1]!.request.messages.map(messageText)).toEqual(['one', 'first', 'two']);
  });

  it('gives tools the shell timeout default (config, else profile) and the hard ceiling', async () => {
    const seen: unknown[] = [];
    const probe = defineTestTool('probe', z.object({}), async (_, ctx) => {
      seen.push([ctx.defaultCommandTimeoutMs, ctx.maxCommandTimeoutMs]);
      return 'ok';
    });
    const run = async (config: Record<string, number>) => {
      const { client } = scripted([{ toolCalls: [{ name: 'probe' }] }, 'done']);
      const profile = testProfile({ toolList: [probe], defaultCommandTimeoutMs: 120_000 });
      await collect(createSession({ client, profile, env: testEnv(), config }).submit('go'));
    };
    await run({});
    await run({ defaultCommandTimeoutMs: 5_000, maxCommandTimeoutMs: 60_000 });
    expect(seen).toEqual([
      [120_000, 600_000],
      [5_000, 60_000],
    ]);
  });

  it('passes the reasoning effort set for the next call', async () => {
    const { adapter, client } = scripted(['a', 'b']);
    const session = createSession({
      client,
      profile: testProfile(),
      env: testEnv(),
      config: { reasoningEffort: 'low' },
    });
    await collect(session.submit('one'));
    session.setReasoningEffort('high');
    await collect(session.submit('two'));
    expect(adapter.calls.map((c) => c.request.reasoningEffort)).toEqual(['low', 'high']);
  });

  it('reports a provider error and goes back to idle; an authentication error closes the session', async () => {
    const { client } = scripted([
      { error: new InvalidRequestError('bad request', { provider: 'anthropic' }) },
      { error: new AuthenticationError('invalid x-api-key', { provider: 'anthropic' }) },
    ]);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const first = await collect(session.submit('one'));
    expect(first.find((e) => e.kind === 'error')?.data).toEqual({
      error: 'bad request',
      phase: 'llm',
      code: 'llm.invalid_request',
      provider: 'anthropic',
    });
    expect(session.state).toBe('idle');
    const second = await collect(session.submit('two'));
    expect(kinds(second).slice(-2)).toEqual(['error', 'session_end']);
    expect(second.at(-1)!.data).toEqual({ state: 'closed' });
    expect(session.state).toBe('closed');
    expect(() => session.submit('three')).toThrow(expect.objectContaining({ code: 'agent.session_closed' }));
  });
});
