import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LLMClient } from '../../../src/llm/client.js';
import { InvalidRequestError } from '../../../src/llm/errors/invalid-request-error.js';
import { NoObjectGeneratedError } from '../../../src/llm/errors/no-object-generated-error.js';
import { defineLLMTool, type ExecutableTool } from '../../../src/llm/executable-tool.js';
import { ScriptedAdapter, type ScriptedTurn } from '../../../src/llm/testing/scripted-adapter.js';
import type { Message, StreamEvent } from '../../../src/llm/types.js';
import { collectEvents } from '../../helpers/llm-fixtures.js';
import type { ScriptedServer } from '../../helpers/sse.js';
import { type ProviderLoop, providerLoops } from './provider-tool-loops.js';

function setup(turns: ScriptedTurn[]) {
  const adapter = new ScriptedAdapter({ turns });
  return { adapter, client: new LLMClient({ adapters: [adapter] }) };
}

/** A weather tool that records every call to execute. */
function weatherTool(seen: Array<{ args: Record<string, unknown>; messages: readonly Message[] }>) {
  return defineLLMTool({
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    },
    execute: async (args, context) => {
      seen.push({ args, messages: context.messages });
      return `sunny in ${String(args['city'])}`;
    },
  });
}

describe('the tool loop (scripted adapter)', () => {
  it('answers an unknown tool with an error result, runs the known call and continues', async () => {
    const seen: Array<{ args: Record<string, unknown>; messages: readonly Message[] }> = [];
    const { client, adapter } = setup([
      {
        toolCalls: [
          { name: 'nope', arguments: {} },
          { name: 'get_weather', arguments: { city: 'Paris' } },
        ],
      },
      'done',
    ]);
    const result = await client.generate({ model: 'm', prompt: 'x', tools: [weatherTool(seen)] });
    expect(result.text).toBe('done');
    expect(adapter.calls).toHaveLength(2);
    expect(seen.map((s) => s.args)).toEqual([{ city: 'Paris' }]);
    expect(result.toolResults.map((r) => [r.content, r.isError])).toEqual([
      ['Unknown tool: nope', true],
      ['sunny in Paris', false],
    ]);
  });

  it('does the same in streamGenerateWithTools', async () => {
    const seen: Array<{ args: Record<string, unknown>; messages: readonly Message[] }> = [];
    const { adapter, client } = setup([{ toolCalls: [{ name: 'nope', arguments: {} }] }, 'done']);
    const events = await collectEvents(
      client.streamGenerateWithTools({ model: 'm', prompt: 'x', tools: [weatherTool(seen)] }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'finish', response: { text: 'done' } });
    expect(adapter.calls[1]!.request.messages.at(-1)!.content[0]).toMatchObject({
      kind: 'tool_result',
      content: 'Unknown tool: nope',
      isError: true,
    });
  });

  it.each([
    ['a wrong type', { city: 42 }, /Invalid arguments for "get_weather": \/city must be string/],
    ['a missing required key', {}, /must have required property 'city'/],
    ['an unexpected key', { city: 'Oslo', colour: 'red' }, /unexpected property "colour"/],
    ['a value below the minimum', { city: 'Oslo', days: 0 }, /\/days must be >= 1/],
  ])('validates arguments against the JSON Schema: %s never reaches execute', async (_n, args, message) => {
    const seen: Array<{ args: Record<string, unknown>; messages: readonly Message[] }> = [];
    const { client } = setup([{ toolCalls: [{ name: 'get_weather', arguments: args }] }, 'ok']);
    const result = await client.generate({ model: 'm', prompt: 'x', tools: [weatherTool(seen)] });
    expect(seen).toEqual([]);
    expect(result.toolResults[0]!.isError).toBe(true);
    expect(result.toolResults[0]!.content).toMatch(message);
    expect(result.text).toBe('ok');
  });

  it('validates a zod-defined tool with zod and hands execute the parsed value', async () => {
    const got: unknown[] = [];
    const tool = defineLLMTool({
      name: 'count',
      description: 'Counts',
      parameters: z.object({ n: z.number().int(), label: z.string().default('items') }),
      execute: async (args) => {
        got.push(args);
        return 'ok';
      },
    });
    expect(tool.parameters).toMatchObject({ type: 'object', properties: { n: { type: 'integer' } } });
    const { client, adapter } = setup([
      {
        toolCalls: [
          { name: 'count', arguments: { n: 1.5 } },
          { name: 'count', arguments: { n: 2 } },
        ],
      },
      'ok',
    ]);
    const result = await client.generate({ model: 'm', prompt: 'x', tools: [tool] });
    expect(got).toEqual([{ n: 2, label: 'items' }]);
    expect(result.toolResults[0]).toMatchObject({ isError: true });
    expect(result.toolResults[0]!.content).toMatch(/Invalid arguments for "count"/);
    expect(adapter.calls[0]!.request.tools![0]).not.toHaveProperty('argumentsSchema');
  });

  it('lets repairToolCall fix arguments, which are validated again before execute', async () => {
    const seen: Array<{ args: Record<string, unknown>; messages: readonly Message[] }> = [];
    const repairs: string[] = [];
    const { client } = setup([
      {
        toolCalls: [
          { name: 'get_weather', arguments: { town: 'Lyon' } },
          { name: 'get_weather', arguments: { town: 7 } },
        ],
      },
      'ok',
    ]);
    const result = await client.generate({
      model: 'm',
      prompt: 'x',
      tools: [weatherTool(seen)],
      repairToolCall: (call, { error }) => {
        repairs.push(error);
        return { city: call.arguments['town'] };
      },
    });
    expect(repairs).toHaveLength(2);
    expect(repairs[0]).toMatch(/unexpected property "town"/);
    expect(seen.map((s) => s.args)).toEqual([{ city: 'Lyon' }]);
    expect(result.toolResults[1]).toMatchObject({ isError: true });
    expect(result.toolResults[1]!.content).toMatch(/\/city must be string/);
  });

  it('repairs arguments that are not JSON at all', async () => {
    const seen: Array<{ args: Record<string, unknown>; messages: readonly Message[] }> = [];
    const broken = {
      id: 'r1',
      model: 'm',
      provider: 'scripted',
      message: {
        role: 'assistant' as const,
        content: [
          {
            kind: 'tool_call' as const,
            toolCallId: 'c1',
            toolName: 'get_weather',
            arguments: {},
            argumentsJson: "{city: 'Nice'",
          },
        ],
      },
      finishReason: { reason: 'tool_calls' as const },
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      text: '',
      toolCalls: [
        {
          kind: 'tool_call' as const,
          toolCallId: 'c1',
          toolName: 'get_weather',
          arguments: {},
          argumentsJson: "{city: 'Nice'",
        },
      ],
      warnings: [],
    };
    const { client } = setup([broken, 'ok']);
    await client.generate({
      model: 'm',
      prompt: 'x',
      tools: [weatherTool(seen)],
      repairToolCall: (call) =>
        JSON.parse(`${call.argumentsJson.replace(/'/g, '"').replace('city', '"city"')}}`),
    });
    expect(seen.map((s) => s.args)).toEqual([{ city: 'Nice' }]);
  });

  it('gives execute the conversation, ending with the assistant message that made the call', async () => {
    const seen: Array<{ args: Record<string, unknown>; messages: readonly Message[] }> = [];
    const { client } = setup([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] }, 'ok']);
    await client.generate({ model: 'm', prompt: 'Weather in Rome?', tools: [weatherTool(seen)] });
    expect(seen[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(seen[0]!.messages.at(-1)!.content[0]).toMatchObject({
      kind: 'tool_call',
      toolName: 'get_weather',
    });
  });

  it('carries the images a tool returns into the tool result', async () => {
    const tool: ExecutableTool = {
      name: 'screenshot',
      description: 'Takes a screenshot',
      parameters: { type: 'object', properties: {} },
      execute: async () => ({
        content: 'here',
        images: [{ kind: 'image', data: 'iVBORw0K', mediaType: 'image/png' }],
      }),
    };
    const { client, adapter } = setup([{ toolCalls: [{ name: 'screenshot' }] }, 'ok']);
    const result = await client.generate({ model: 'm', prompt: 'x', tools: [tool] });
    expect(result.toolResults[0]!.images).toEqual([
      { kind: 'image', data: 'iVBORw0K', mediaType: 'image/png' },
    ]);
    expect(adapter.calls[1]!.request.messages.at(-1)!.content[0]).toMatchObject({
      images: [{ data: 'iVBORw0K' }],
    });
  });

  it.each([
    ['a hyphen', 'get-weather'],
    ['a leading digit', '1tool'],
    ['65 characters', 'a'.repeat(65)],
  ])('rejects a tool name with %s before any call, in generate and in defineLLMTool', async (_n, name) => {
    const { client, adapter } = setup(['never']);
    const tool = { name, description: 'd', parameters: { type: 'object' } };
    await expect(client.generate({ model: 'm', prompt: 'x', tools: [tool] })).rejects.toThrow(
      InvalidRequestError,
    );
    await expect(
      collectEvents(client.streamGenerateWithTools({ model: 'm', prompt: 'x', tools: [tool] })),
    ).rejects.toThrow(InvalidRequestError);
    await expect(client.complete({ model: 'm', messages: [], tools: [tool] })).rejects.toThrow(
      InvalidRequestError,
    );
    expect(adapter.calls).toHaveLength(0);
    expect(() => defineLLMTool(tool)).toThrow(/Invalid tool name/);
  });

  it('accepts the longest valid name', () => {
    expect(
      defineLLMTool({ name: `a${'_9'.repeat(31)}b`, description: 'd', parameters: { type: 'object' } }).name,
    ).toHaveLength(64);
  });
});

describe('generateObject with a plain JSON Schema', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' } },
    required: ['name', 'age'],
  };

  it('validates the output like a zod schema', async () => {
    const { client } = setup(['{"name":"Alice","age":"thirty"}']);
    const error = await client.generateObject({ model: 'm', prompt: 'x', schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoObjectGeneratedError);
    expect((error as Error).message).toMatch(/\/age must be integer/);
  });

  it('returns a matching object', async () => {
    const { client } = setup(['{"name":"Alice","age":30}']);
    expect((await client.generateObject({ model: 'm', prompt: 'x', schema })).output).toEqual({
      name: 'Alice',
      age: 30,
    });
  });
});

describe.each(providerLoops)('the tool loop against the fake $name server', (provider: ProviderLoop) => {
  let server: ScriptedServer;
  let client: LLMClient;
  beforeAll(async () => {
    ({ server, client } = await provider.start());
  });
  afterAll(() => server.close());

  const calls = [
    { id: 'call_a', name: 'nope', args: '{}' },
    { id: 'call_b', name: 'get_weather', args: '{"city":42}' },
    { id: 'call_c', name: 'get_weather', args: '{"city":"Paris"}' },
  ];

  function tool(seen: unknown[]): ExecutableTool {
    return {
      ...weatherTool([]),
      execute: async (args) => {
        seen.push(args);
        return {
          content: `sunny in ${String(args['city'])}`,
          images: [{ kind: 'image', data: 'iVBORw0K', mediaType: 'image/png' }],
        };
      },
    };
  }

  it.each([false, true])(
    'stream=%s: unknown tool and bad arguments become error results; the loop goes on',
    async (stream) => {
      const seen: unknown[] = [];
      const before = server.requests.length;
      server.enqueue(provider.callsReply(calls, stream), provider.textReply('done', stream));
      const options = { model: provider.model, prompt: 'Weather?', tools: [tool(seen)] };
      const text = stream
        ? (
            (await collectEvents(client.streamGenerateWithTools(options))).at(-1) as Extract<
              StreamEvent,
              { type: 'finish' }
            >
          ).response.text
        : (await client.generate(options)).text;
      expect(text).toBe('done');
      expect(server.requests.length - before).toBe(2);
      expect(seen).toEqual([{ city: 'Paris' }]);
      const results = provider.results(server.requests.at(-1)!.body as Record<string, unknown>);
      expect(results.map((r) => [r.text.split(':')[0], r.isError])).toEqual([
        ['Unknown tool', true],
        ['Invalid arguments for "get_weather"', true],
        ['sunny in Paris', false],
      ]);
      expect(results.map((r) => r.images)).toEqual([0, 0, 1]);
    },
  );
});
