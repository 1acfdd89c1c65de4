import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import { createSession } from '../../../src/agent/session/session.js';
import { messageText } from '../../../src/llm/index.js';
import { collect, scripted, testEnv, testProfile } from './session-fixtures.js';

const isChildTask = (text: string) => text.startsWith('child:');

describe('Session subagents', () => {
  it('spawns a child session, waits for its answer, and rolls its usage up', async () => {
    const { adapter, client } = scripted((request) => {
      const first = messageText(request.messages[0]!);
      if (isChildTask(first)) {
        // The child: one tool round of its own, then its answer.
        return request.messages.length === 1
          ? { toolCalls: [{ name: 'echo', arguments: { text: 'from child' } }], usage: { inputTokens: 100 } }
          : { text: 'child result: 42', usage: { inputTokens: 200 } };
      }
      const results = request.messages.filter((m) => m.role === 'tool').length;
      if (results === 0)
        return { toolCalls: [{ name: 'spawn_agent', arguments: { task: 'child: compute' }, id: 's' }] };
      if (results === 1)
        return { toolCalls: [{ name: 'wait', arguments: { agent_id: 'agent-1' }, id: 'w' }] };
      if (results === 2)
        return { toolCalls: [{ name: 'close_agent', arguments: { agent_id: 'agent-1' }, id: 'c' }] };
      return 'parent done';
    });
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const events = await collect(session.submit('delegate'));
    const outputs = Object.fromEntries(
      events.filter((e) => e.kind === 'tool_call_end').map((e) => [e.data['tool_call_id'], e.data]),
    );
    expect(outputs['s']).toMatchObject({
      is_error: false,
      output:
        "Subagent 'agent-1' spawned for task: child: compute\nUse wait(agent_id='agent-1') to get results.",
    });
    expect(outputs['w']).toMatchObject({ is_error: false, output: 'child result: 42' });
    expect(outputs['c']).toMatchObject({ is_error: false, output: "Subagent 'agent-1' closed" });
    // The child kept its own history: its requests never contain the parent's conversation.
    const childCalls = adapter.calls.filter((c) => isChildTask(messageText(c.request.messages[0]!)));
    expect(childCalls).toHaveLength(2);
    // Usage: 4 parent calls × 10 input tokens + the child's 100 + 200.
    expect(session.usage.inputTokens).toBe(340);
    const childUsage = events.filter((e) => e.kind === 'usage' && e.data['subagent_id'] !== undefined);
    expect(childUsage).toHaveLength(2);
  });

  it('refuses to spawn beyond max_subagent_depth and tells the model why', async () => {
    const { client } = scripted((request) => {
      const first = messageText(request.messages[0]!);
      const tools = request.messages.filter((m) => m.role === 'tool');
      if (tools.length === 0) {
        return {
          toolCalls: [
            { name: 'spawn_agent', arguments: { task: isChildTask(first) ? 'grandchild' : 'child: go' } },
          ],
        };
      }
      if (isChildTask(first)) return `child saw: ${(tools[0]!.content[0] as { content: string }).content}`;
      if (tools.length === 1) return { toolCalls: [{ name: 'wait', arguments: { agent_id: 'agent-1' } }] };
      return 'done';
    });
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const events = await collect(session.submit('go'));
    const waited = events.filter((e) => e.kind === 'tool_call_end').at(-1)!;
    expect(waited.data['output']).toBe(
      'child saw: Cannot spawn a subagent: the maximum subagent depth (1) is reached. Do this task yourself.',
    );
  });

  it('reports unknown agent ids as errors', async () => {
    const { client } = scripted([
      {
        toolCalls: [
          { name: 'wait', arguments: { agent_id: 'agent-9' } },
          { name: 'send_input', arguments: { agent_id: 'agent-9', message: 'hi' } },
          { name: 'close_agent', arguments: { agent_id: 'agent-9' } },
        ],
      },
      'ok',
    ]);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const ends = (await collect(session.submit('go'))).filter((e) => e.kind === 'tool_call_end');
    expect(ends.map((e) => [e.data['is_error'], e.data['output']])).toEqual([
      [true, "No subagent with id 'agent-9'."],
      [true, "No subagent with id 'agent-9'."],
      [true, "No subagent with id 'agent-9'."],
    ]);
  });
});

describe('Session lifecycle actor', () => {
  it('runs as a child actor in its parent’s system, so the inspector sees it and its transitions', async () => {
    const inspected: InspectionEvent[] = [];
    const { client } = scripted(['hello']);
    let sessionActorId = '';
    const parent = createActor(
      fromPromise(async ({ self }) => {
        const session = createSession({ client, profile: testProfile(), env: testEnv(), parent: self });
        sessionActorId = session.actor.id;
        await collect(session.submit('hi'));
        await session.shutdown();
        return session.state;
      }),
      { inspect: (event) => inspected.push(event) },
    );
    parent.start();
    const done = await new Promise((resolve) =>
      parent.subscribe({ complete: () => resolve(parent.getSnapshot().output) }),
    );
    expect(done).toBe('closed');
    const created = inspected.find(
      (e) => e.type === '@xstate.actor' && (e.actorRef as { id?: string }).id === sessionActorId,
    );
    expect(created).toBeDefined();
    expect((created!.actorRef as unknown as { _parent?: unknown })._parent).toBe(parent);
    const states = inspected
      .filter((e) => e.type === '@xstate.snapshot' && (e.actorRef as { id?: string }).id === sessionActorId)
      .map((e) => (e as { snapshot: { value?: unknown } }).snapshot.value);
    expect(states).toEqual(expect.arrayContaining(['processing', 'idle', 'closed']));
  });
});
