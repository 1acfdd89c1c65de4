import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../../../src/agent/session/agent-event.js';
import { createSession } from '../../../src/agent/session/session.js';
import type { AgentTool, AgentToolResult } from '../../../src/agent/tools/define-tool.js';
import { headTailMarker } from '../../../src/agent/truncation/truncate-output.js';
import type { Message } from '../../../src/llm/index.js';
import { collect, echoTool, scripted, testEnv, testProfile } from './session-fixtures.js';

/** A tool whose `execute` is the test's own function, as plain JavaScript may write it (no promise needed). */
function rawTool(name: string, execute: (args: { n?: number }) => unknown): AgentTool {
  const parameters = z.object({ n: z.number().optional() });
  return {
    name,
    description: `${name} (test tool)`,
    parameters,
    jsonSchema: z.toJSONSchema(parameters) as Record<string, unknown>,
    execute,
  } as unknown as AgentTool;
}

/** What the model was sent as tool results. */
const toolMessages = (messages: readonly Message[]) =>
  messages.flatMap((m) => m.content.flatMap((part) => (part.kind === 'tool_result' ? [part.content] : [])));

/**
 * Rounds of one tool call take the loop's fast path (executeToolRound answers at once, or the loop awaits the
 * tool's own promise); each way a call can end must still give TOOL_CALL_END and the model its result.
 */
describe('Session one-call tool rounds', () => {
  const cases: Array<{ name: string; tool: AgentTool; args?: Record<string, unknown>; end: unknown }> = [
    {
      name: 'a tool answering with a promise',
      tool: rawTool('later', async () => ({ output: 'later ok', isError: false })),
      end: { output: 'later ok', truncated_output: 'later ok', is_error: false },
    },
    {
      name: 'a tool answering without a promise',
      tool: rawTool('now', () => ({ output: 'now ok', isError: false })),
      end: { output: 'now ok', truncated_output: 'now ok', is_error: false },
    },
    {
      name: 'a tool rejecting',
      tool: rawTool('rejects', async () => {
        throw new Error('disk on fire');
      }),
      end: {
        output: 'Tool error (rejects): disk on fire',
        truncated_output: 'Tool error (rejects): disk on fire',
        is_error: true,
      },
    },
    {
      name: 'a tool throwing synchronously',
      tool: rawTool('throws', () => {
        throw new Error('no disk');
      }),
      end: {
        output: 'Tool error (throws): no disk',
        truncated_output: 'Tool error (throws): no disk',
        is_error: true,
      },
    },
    {
      name: 'a tool resolving to nothing',
      tool: rawTool('empty', async () => undefined),
      end: { is_error: true, output: expect.stringMatching(/^Tool error \(empty\): /) },
    },
    {
      name: 'a tool answering nothing without a promise',
      tool: rawTool('void', () => undefined),
      end: { is_error: true, output: expect.stringMatching(/^Tool error \(void\): /) },
    },
    {
      name: 'invalid arguments',
      tool: rawTool('strict', async () => ({ output: 'unreachable', isError: false })),
      args: { n: 'three' },
      end: { is_error: true, output: expect.stringMatching(/^Invalid arguments for tool: strict: n: /) },
    },
  ];

  it.each(cases)('ends $name with TOOL_CALL_END and a result for the model', async ({ tool, args, end }) => {
    const { adapter, client } = scripted([
      { toolCalls: [{ name: tool.name, arguments: args ?? { n: 1 }, id: 't1' }] },
      'finished',
    ]);
    const session = createSession({ client, profile: testProfile({ toolList: [tool] }), env: testEnv() });
    const events = await collect(session.submit('go'));
    const ends = events.filter((e) => e.kind === 'tool_call_end');
    expect(ends).toHaveLength(1);
    expect(ends[0]!.data).toMatchObject({ tool_name: tool.name, tool_call_id: 't1', ...(end as object) });
    expect(toolMessages(adapter.calls[1]!.request.messages)).toEqual([ends[0]!.data['truncated_output']]);
    expect(session.history.map((turn) => turn.kind)).toEqual([
      'user',
      'assistant',
      'tool_results',
      'assistant',
    ]);
    expect(events.at(-1)!.kind).toBe('processing_end');
  });

  it('truncates what the model sees and keeps the whole output in TOOL_CALL_END', async () => {
    const big = rawTool('big', async () => ({ output: 'x'.repeat(60_000), isError: false }));
    const { adapter, client } = scripted([{ toolCalls: [{ name: 'big', arguments: {}, id: 'b' }] }, 'ok']);
    const session = createSession({ client, profile: testProfile({ toolList: [big] }), env: testEnv() });
    const events = await collect(session.submit('go'));
    const end = events.find((e) => e.kind === 'tool_call_end')!;
    expect(end.data['output']).toBe('x'.repeat(60_000));
    expect(String(end.data['truncated_output'])).toContain(headTailMarker(10_000));
    expect(toolMessages(adapter.calls[1]!.request.messages)).toEqual([end.data['truncated_output']]);
  });

  it('ends the call in the job the tool’s own promise resolves in', async () => {
    let release!: (result: AgentToolResult) => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const gate = rawTool(
      'gate',
      () =>
        new Promise<AgentToolResult>((resolve) => {
          release = resolve;
          started();
        }),
    );
    const seen: AgentEvent[] = [];
    const { client } = scripted([{ toolCalls: [{ name: 'gate', arguments: {}, id: 'g' }] }, 'ok']);
    const session = createSession({
      client,
      profile: testProfile({ toolList: [gate, echoTool] }),
      env: testEnv(),
      onEvent: (event) => seen.push(event),
    });
    const done = collect(session.submit('go'));
    await running;
    release({ output: 'released', isError: false });
    // The loop's continuation was queued by `release`, before this one: it has run when this resumes.
    await null;
    expect(seen.filter((e) => e.kind === 'tool_call_end').map((e) => e.data['output'])).toEqual(['released']);
    await done;
  });
});
