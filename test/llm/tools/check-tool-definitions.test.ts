import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../src/llm/errors/invalid-request-error.js';
import { checkToolDefinitions } from '../../../src/llm/tools/check-tool-definitions.js';
import type { ToolDefinition } from '../../../src/llm/types.js';

const tool = (name: string, parameters: Record<string, unknown> = { type: 'object' }): ToolDefinition => ({
  name,
  description: 'd',
  parameters,
});

describe('checkToolDefinitions on a list it has passed before', () => {
  it('passes the same list again', () => {
    const tools = [tool('read_file'), tool('shell')];
    checkToolDefinitions(tools);
    expect(() => checkToolDefinitions(tools)).not.toThrow();
  });

  // A list passes again unchecked only while what the check read is unchanged.
  it.each([
    [
      'a name changed in place to an invalid one',
      (t: ToolDefinition[]) => (t[0]!.name = '9lives'),
      /Invalid tool name/,
    ],
    [
      'a name changed in place to a duplicate',
      (t: ToolDefinition[]) => (t[1]!.name = 'read_file'),
      /defined twice/,
    ],
    [
      'a schema replaced by one without type object',
      (t: ToolDefinition[]) => (t[0]!.parameters = { type: 'string' }),
      /type "object"/,
    ],
    [
      'a schema whose type was changed in place',
      (t: ToolDefinition[]) => (t[0]!.parameters['type'] = 'array'),
      /type "object"/,
    ],
    [
      'a tool replaced by an invalid one',
      (t: ToolDefinition[]) => (t[1] = tool('bad name')),
      /Invalid tool name/,
    ],
    ['a tool pushed with a duplicate name', (t: ToolDefinition[]) => t.push(tool('shell')), /defined twice/],
  ])('rejects %s', (_name, change, message) => {
    const tools = [tool('read_file'), tool('shell')];
    checkToolDefinitions(tools);
    change(tools);
    expect(() => checkToolDefinitions(tools)).toThrow(InvalidRequestError);
    expect(() => checkToolDefinitions(tools)).toThrow(message);
  });
});
