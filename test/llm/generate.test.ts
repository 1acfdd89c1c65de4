import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LLMClient } from '../../src/llm/client.js';
import { InvalidRequestError } from '../../src/llm/errors/invalid-request-error.js';
import { NoObjectGeneratedError } from '../../src/llm/errors/no-object-generated-error.js';
import type { GenerateOptions } from '../../src/llm/generate.js';
import { Message } from '../../src/llm/message.js';
import { ScriptedAdapter, type ScriptedTurn } from '../../src/llm/testing/scripted-adapter.js';
import type { StreamEvent, ToolDefinition } from '../../src/llm/types.js';

const weather: ToolDefinition = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function setup(turns: ScriptedTurn[]) {
  const adapter = new ScriptedAdapter({ turns });
  return { adapter, client: new LLMClient({ adapters: [adapter] }) };
}

const executor = async (): Promise<string> => 'r';
/**
 * Where the tool loop ends, for generate and streamGenerateWithTools alike: options, model calls made,
 * tool calls returned unexecuted.
 */
const loopEnds: Array<[string, Partial<GenerateOptions>, number, number]> = [
  ['maxToolRounds 0 makes a single call', { maxToolRounds: 0, toolExecutor: executor }, 1, 1],
  ['passive tools (no executor) are returned to the caller', {}, 1, 1],
  ['stopWhen ends the loop', { toolExecutor: executor, stopWhen: () => true }, 1, 0],
  ['a round of executed tools goes back to the model', { toolExecutor: executor }, 2, 0],
  ['maxToolRounds 1 lets one round of tools run', { maxToolRounds: 1, toolExecutor: executor }, 2, 0],
];

describe('generate', () => {
  it('gives tools a signal even when nothing can abort the loop (no abortSignal, no total timeout)', async () => {
    const { client } = setup([{ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, 'done']);
    const signals: unknown[] = [];
    await client.generate({
      model: 'm',
      prompt: 'Weather?',
      tools: [weather],
      toolExecutor: async (_call, context) => {
        signals.push(context.signal);
        return 'sunny';
      },
    });
    expect(signals).toHaveLength(1);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
  });

  it('rejects prompt and messages together, and neither', async () => {
    const { client } = setup(['x']);
    await expect(client.generate({ model: 'm', prompt: 'a', messages: [Message.user('b')] })).rejects.toThrow(
      InvalidRequestError,
    );
    await expect(client.generate({ model: 'm' })).rejects.toThrow(InvalidRequestError);
  });

  it('loops through tool rounds, sums usage and keeps the conversation', async () => {
    const { client, adapter } = setup([
      {
        toolCalls: [
          { name: 'weather', arguments: { city: 'Paris' } },
          { name: 'weather', arguments: { city: 'Rome' } },
        ],
      },
      { toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] },
      'Sunny everywhere.',
    ]);
    const result = await client.generate({
      model: 'm',
      prompt: 'Weather?',
      tools: [weather],
      toolExecutor: async (call) => `sunny in ${String(call.arguments['city'])}`,
    });
    expect(result.text).toBe('Sunny everywhere.');
    expect(result.steps).toHaveLength(3);
    expect(result.toolResults.map((r) => r.content)).toEqual([
      'sunny in Paris',
      'sunny in Rome',
      'sunny in Oslo',
    ]);
    expect(result.totalUsage).toMatchObject({ inputTokens: 30, outputTokens: 15 });
    expect(result.usage).toMatchObject({ inputTokens: 10 });
    const second = adapter.calls[1]!.request.messages;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(second[2]!.content[0]).toMatchObject({ kind: 'tool_result', toolName: 'weather', isError: false });
    expect(result.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it.each([
    ['an unknown tool', { name: 'nope', arguments: {} }, /^Unknown tool: nope$/],
    [
      'a missing required argument',
      { name: 'weather', arguments: {} },
      /Invalid arguments for "weather": the arguments must have required property 'city'/,
    ],
  ])('turns %s into an error result for the model', async (_name, call, message) => {
    const { client, adapter } = setup([{ toolCalls: [call] }, 'ok']);
    const result = await client.generate({
      model: 'm',
      prompt: 'x',
      tools: [weather],
      toolExecutor: async () => 'never',
    });
    expect(result.toolResults[0]).toMatchObject({ isError: true });
    expect(result.toolResults[0]!.content).toMatch(message);
    expect(adapter.calls).toHaveLength(2);
  });

  it('turns a throwing executor into an error result', async () => {
    const { client } = setup([{ toolCalls: [{ name: 'weather', arguments: { city: 'X' } }] }, 'ok']);
    const result = await client.generate({
      model: 'm',
      prompt: 'x',
      tools: [weather],
      toolExecutor: async () => {
        throw new Error('disk full');
      },
    });
    expect(result.toolResults[0]).toMatchObject({
      isError: true,
      content: 'Tool "weather" failed: disk full',
    });
  });

  it('runs a tool its own execute function (active tool)', async () => {
    const { client } = setup([{ toolCalls: [{ name: 'weather', arguments: { city: 'Lyon' } }] }, 'done']);
    const result = await client.generate({
      model: 'm',
      prompt: 'x',
      tools: [{ ...weather, execute: async (args) => ({ content: `rain in ${String(args['city'])}` }) }],
    });
    expect(result.toolResults[0]!.content).toBe('rain in Lyon');
  });

  it.each(loopEnds)('%s', async (_name, extra, calls, returned) => {
    const { client, adapter } = setup([
      { toolCalls: [{ name: 'weather', arguments: { city: 'A' } }] },
      'never',
    ]);
    const result = await client.generate({ model: 'm', prompt: 'x', tools: [weather], ...extra });
    expect(adapter.calls).toHaveLength(calls);
    expect(result.toolCalls).toHaveLength(returned);
  });

  it('sends tool definitions without their execute functions', async () => {
    const { client, adapter } = setup(['ok']);
    await client.generate({ model: 'm', prompt: 'x', tools: [{ ...weather, execute: async () => 'r' }] });
    expect(adapter.calls[0]!.request.tools).toEqual([weather]);
  });
});

describe('streamGenerateWithTools', () => {
  it('streams each round, with step_finish between rounds and finish (total usage) at the end', async () => {
    const { client } = setup([{ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, 'Sunny.']);
    const events: StreamEvent[] = [];
    for await (const event of client.streamGenerateWithTools({
      model: 'm',
      prompt: 'x',
      tools: [weather],
      toolExecutor: async () => 'sunny',
    })) {
      events.push(event);
    }
    const kinds = events.map((event) => event.type);
    expect(kinds.filter((k) => k === 'step_finish')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'finish')).toHaveLength(1);
    expect(kinds.indexOf('tool_call_end')).toBeLessThan(kinds.indexOf('step_finish'));
    const finish = events.at(-1) as Extract<StreamEvent, { type: 'finish' }>;
    expect(finish.response.text).toBe('Sunny.');
    expect(finish.usage.inputTokens).toBe(20);
  });

  it.each(loopEnds)('%s, as generate does', async (_name, extra, calls) => {
    const { client, adapter } = setup([
      { toolCalls: [{ name: 'weather', arguments: { city: 'A' } }] },
      'never',
    ]);
    const kinds: string[] = [];
    for await (const event of client.streamGenerateWithTools({
      model: 'm',
      prompt: 'x',
      tools: [weather],
      ...extra,
    }))
      kinds.push(event.type);
    expect(adapter.calls).toHaveLength(calls);
    const executed = extra.toolExecutor !== undefined && extra.maxToolRounds !== 0;
    expect(kinds.filter((kind) => kind === 'step_finish')).toHaveLength(executed ? 1 : 0);
    expect(kinds.filter((kind) => kind === 'finish')).toEqual(['finish']);
    expect(kinds.at(-1)).toBe('finish');
  });
});

describe('generateObject and streamObject', () => {
  const schema = z.object({ name: z.string(), age: z.number() });

  it('sends a strict json_schema format and validates the result', async () => {
    const { client, adapter } = setup(['```json\n{"name":"Alice","age":30}\n```']);
    const result = await client.generateObject({ model: 'm', prompt: 'Alice, 30', schema });
    expect(result.output).toEqual({ name: 'Alice', age: 30 });
    expect(adapter.calls[0]!.request.responseFormat).toMatchObject({
      type: 'json_schema',
      name: 'response',
      strict: true,
      jsonSchema: { type: 'object', required: ['name', 'age'] },
    });
  });

  it.each([
    ['not JSON', 'Alice is 30', /not valid JSON/],
    ['the wrong shape', '{"name":"Alice","age":"thirty"}', /does not match the schema/],
  ])('throws NoObjectGeneratedError on %s, keeping the text', async (_name, text, message) => {
    const { client } = setup([text]);
    const error = await client.generateObject({ model: 'm', prompt: 'x', schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoObjectGeneratedError);
    expect((error as NoObjectGeneratedError).message).toMatch(message);
    expect((error as NoObjectGeneratedError).text).toBe(text);
  });

  it('streamObject yields the parsed object once, and accepts a plain JSON Schema', async () => {
    const { client } = setup(['{"ok":true}']);
    const out: unknown[] = [];
    for await (const value of client.streamObject({ model: 'm', prompt: 'x', schema: { type: 'object' } }))
      out.push(value);
    expect(out).toEqual([{ ok: true }]);
  });
});
