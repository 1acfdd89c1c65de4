import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Session } from '../../../src/agent/session/session.js';
import { createSession } from '../../../src/agent/session/session.js';
import { messageText } from '../../../src/llm/index.js';
import { collect, defineTestTool, kinds, scripted, testEnv, testProfile } from './session-fixtures.js';

/** A tool that runs `action` on the session while a tool round is in progress. */
function sessionTool(action: (session: Session) => void) {
  const holder: { session?: Session } = {};
  const tool = defineTestTool('act', z.object({}), async () => {
    action(holder.session!);
    return 'acted';
  });
  return { holder, tool };
}

describe('Session steering and follow-up', () => {
  it('injects a steering message after the current tool round, before the next model call', async () => {
    const { holder, tool } = sessionTool((s) => s.steer('Use tabs, not spaces.'));
    const { adapter, client } = scripted([{ toolCalls: [{ name: 'act' }] }, 'ok']);
    const session = createSession({ client, profile: testProfile({ toolList: [tool] }), env: testEnv() });
    holder.session = session;
    const events = await collect(session.submit('format the file'));
    const order = kinds(events);
    expect(order.indexOf('steering_injected')).toBeGreaterThan(order.indexOf('tool_call_end'));
    expect(events.find((e) => e.kind === 'steering_injected')!.data).toEqual({
      text: 'Use tabs, not spaces.',
    });
    const next = adapter.calls[1]!.request.messages;
    expect(next.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(messageText(next[3]!)).toBe('Use tabs, not spaces.');
    expect(session.history.map((t) => t.kind)).toEqual([
      'user',
      'assistant',
      'tool_results',
      'steering',
      'assistant',
    ]);
  });

  it('processes a follow-up after the current input completes, in the same stream, with one PROCESSING_END', async () => {
    const { holder, tool } = sessionTool((s) => s.followUp('now add a test'));
    const { adapter, client } = scripted([
      { toolCalls: [{ name: 'act' }] },
      'function written',
      'test added',
    ]);
    const session = createSession({ client, profile: testProfile({ toolList: [tool] }), env: testEnv() });
    holder.session = session;
    const events = await collect(session.submit('write the function'));
    const story = events
      .filter((e) => ['user_input', 'assistant_text_end', 'processing_end'].includes(e.kind))
      .map((e) => `${e.kind}:${'text' in e.data ? e.data.text : ''}`);
    expect(story).toEqual([
      'user_input:write the function',
      'assistant_text_end:function written',
      'user_input:now add a test',
      'assistant_text_end:test added',
      'processing_end:',
    ]);
    expect(adapter.calls[2]!.request.messages.map(messageText).at(-1)).toBe('now add a test');
  });

  it('keeps steering and follow-ups in the order they were given', async () => {
    const { holder, tool } = sessionTool((s) => {
      s.followUp('f1');
      s.steer('s1');
      s.followUp('f2');
      s.steer('s2');
    });
    const { client } = scripted([{ toolCalls: [{ name: 'act' }] }, 'a', 'b', 'c']);
    const session = createSession({ client, profile: testProfile({ toolList: [tool] }), env: testEnv() });
    holder.session = session;
    const events = await collect(session.submit('start'));
    const inputs = events
      .filter((e) => e.kind === 'user_input' || e.kind === 'steering_injected')
      .map((e) => e.data['text']);
    expect(inputs).toEqual(['start', 's1', 's2', 'f1', 'f2']);
  });

  it('holds a steering message given while idle until the next input', async () => {
    const { adapter, client } = scripted(['a', 'b']);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    await collect(session.submit('one'));
    session.steer('be brief');
    const events = await collect(session.submit('two'));
    expect(kinds(events).slice(0, 2)).toEqual(['user_input', 'steering_injected']);
    expect(adapter.calls[1]!.request.messages.map(messageText).slice(-2)).toEqual(['two', 'be brief']);
  });
});

describe('Session limits', () => {
  const looping = (n: number) => ({ toolCalls: [{ name: 'echo', arguments: { text: `call ${n}` } }] });

  it('stops at max_tool_rounds_per_input with TURN_LIMIT and returns to idle', async () => {
    const { adapter, client } = scripted((_, i) => looping(i));
    const session = createSession({
      client,
      profile: testProfile(),
      env: testEnv(),
      config: { maxToolRoundsPerInput: 3 },
    });
    const events = await collect(session.submit('go'));
    expect(events.filter((e) => e.kind === 'tool_call_end')).toHaveLength(3);
    expect(events.find((e) => e.kind === 'turn_limit')!.data).toEqual({
      turns: 3,
      limit: 3,
      kind: 'tool_rounds',
    });
    expect(adapter.calls).toHaveLength(3);
    expect(session.state).toBe('idle');
    // The limit is per input: the next submit gets a fresh allowance.
    await collect(session.submit('again'));
    expect(adapter.calls).toHaveLength(6);
  });

  it('stops at max_turns counted across the whole session', async () => {
    const { adapter, client } = scripted((_, i) => (i === 0 ? 'first answer' : looping(i)));
    const session = createSession({
      client,
      profile: testProfile(),
      env: testEnv(),
      config: { maxTurns: 3 },
    });
    await collect(session.submit('one'));
    const events = await collect(session.submit('two'));
    expect(events.find((e) => e.kind === 'turn_limit')!.data).toEqual({ turns: 3, limit: 3, kind: 'turns' });
    expect(adapter.calls).toHaveLength(3);
  });

  it('is unlimited by default (0): a long tool loop runs until the model answers', async () => {
    const { adapter, client } = scripted((_, i) => (i < 30 ? looping(i) : 'finally'));
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const events = await collect(session.submit('go'));
    expect(kinds(events)).not.toContain('turn_limit');
    expect(adapter.calls).toHaveLength(31);
  });
});
