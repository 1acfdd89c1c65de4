import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentTool, AgentToolResult } from '../../../src/agent/tools/define-tool.js';
import { defineTool } from '../../../src/agent/tools/define-tool.js';
import {
  agentToolError,
  finishAgentTool,
  runAgentTool,
  startAgentTool,
} from '../../../src/agent/tools/run-agent-tool.js';
import { headTailMarker, tailMarker } from '../../../src/agent/truncation/truncate-output.js';
import { useWorkspace } from './tool-fixtures.js';

const repeat = defineTool({
  name: 'repeat',
  description: 'Repeat a character.',
  parameters: z.object({
    char: z.string().length(1).describe('The character.'),
    times: z.number().int().min(0),
  }),
  execute: async ({ char, times }) => ({ output: char.repeat(times), isError: false }),
});

describe('defineTool', () => {
  it('derives the JSON schema the model sees from the zod parameters', () => {
    expect(repeat.jsonSchema).toMatchObject({
      type: 'object',
      properties: {
        char: { type: 'string', description: 'The character.', minLength: 1, maxLength: 1 },
        times: { type: 'integer', minimum: 0 },
      },
      required: ['char', 'times'],
    });
    expect(repeat.jsonSchema).not.toHaveProperty('$schema');
  });
});

describe('runAgentTool', () => {
  const ws = useWorkspace();

  it('validates, and writes validation failures for the model', async () => {
    const result = await runAgentTool(repeat, { char: 'ab' }, ws.ctx());
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Invalid arguments for tool: repeat: char: .*; times: /);
    expect(result.truncated).toBe(result.output);
  });

  it('keeps the full output and truncates what the model sees with the tool limits', async () => {
    const result = await runAgentTool(repeat, { char: 'x', times: 60_000 }, ws.ctx());
    expect(result.output).toBe('x'.repeat(60_000));
    expect(result.truncated).toContain(headTailMarker(10_000));
    expect(result.truncated.length).toBe(50_000 + headTailMarker(10_000).length);
  });

  it('applies overrides from the session config', async () => {
    const result = await runAgentTool(repeat, { char: 'x', times: 10 }, ws.ctx(), {
      charLimits: { repeat: 4 },
      truncationModes: { repeat: 'tail' },
    });
    expect(result.truncated).toBe(`${tailMarker(6)}xxxx`);
  });

  it('turns a throwing tool into an error result', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Throws.',
      parameters: z.object({}),
      execute: async () => {
        throw new Error('kaput');
      },
    });
    expect(await runAgentTool(broken, {}, ws.ctx())).toEqual({
      output: 'Tool error (broken): kaput',
      truncated: 'Tool error (broken): kaput',
      isError: true,
    });
  });
});

describe('startAgentTool', () => {
  const ws = useWorkspace();
  /** A tool whose execute is the test's own function (plain JavaScript may answer without a promise). */
  const toolOf = (execute: () => unknown): AgentTool =>
    ({ ...repeat, name: 'custom', execute }) as unknown as AgentTool;

  it('hands back the tool’s own pending answer, untouched, for the caller to await', async () => {
    const answer = Promise.resolve({ output: 'x'.repeat(60_000), isError: false });
    const started = startAgentTool(
      toolOf(() => answer),
      { char: 'x', times: 1 },
      ws.ctx(),
    );
    expect(started).toBe(answer);
    const finished = finishAgentTool(repeat, (await started) as AgentToolResult);
    expect(finished.output).toBe('x'.repeat(60_000));
    expect(finished.truncated).toContain(headTailMarker(10_000));
  });

  it('answers at once when there is nothing to wait for', () => {
    const invalid = startAgentTool(repeat, { char: 'ab' }, ws.ctx());
    expect(invalid).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^Invalid arguments for tool: repeat: /),
    });
    const synchronous = startAgentTool(
      toolOf(() => ({ output: 'y'.repeat(60_000), isError: false })),
      { char: 'y', times: 1 },
      ws.ctx(),
    );
    expect(synchronous).toMatchObject({ output: 'y'.repeat(60_000), isError: false });
    expect((synchronous as { truncated: string }).truncated).toContain(headTailMarker(10_000));
    const thrown = startAgentTool(
      toolOf(() => {
        throw new Error('no disk');
      }),
      { char: 'z', times: 1 },
      ws.ctx(),
    );
    expect(thrown).toEqual({
      output: 'Tool error (custom): no disk',
      truncated: 'Tool error (custom): no disk',
      isError: true,
    });
  });

  it('writes a rejection as runAgentTool does', async () => {
    const failing = toolOf(() => Promise.reject(new Error('gone')));
    const started = startAgentTool(failing, { char: 'z', times: 1 }, ws.ctx());
    const error = await Promise.resolve(started).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(agentToolError(failing, error)).toEqual(
      await runAgentTool(failing, { char: 'z', times: 1 }, ws.ctx()),
    );
  });
});
