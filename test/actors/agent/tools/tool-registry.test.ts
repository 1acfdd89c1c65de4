import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../../src/actors/agent/tools/define-tool.js';
import { createDefaultTools, ToolRegistry } from '../../../../src/actors/agent/tools/tool-registry.js';

describe('tool registry', () => {
  it('has every built-in tool, each with an object JSON schema', () => {
    const registry = createDefaultTools();
    expect(registry.names()).toEqual([
      'read_file',
      'read_many_files',
      'write_file',
      'edit_file',
      'shell',
      'grep',
      'glob',
      'list_dir',
      'apply_patch',
    ]);
    for (const def of registry.definitions()) {
      expect(def.parameters).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(def.description.length).toBeGreaterThan(10);
    }
  });

  it('picks a subset in the given order (profiles)', () => {
    expect(createDefaultTools(['read_file', 'apply_patch', 'shell']).names()).toEqual([
      'read_file',
      'apply_patch',
      'shell',
    ]);
  });

  it('refuses unknown names', () => {
    expect(() => createDefaultTools(['read_file', 'teleport'])).toThrow(
      /Unknown built-in agent tool\(s\): teleport/,
    );
  });

  it('a later registration wins on a name clash; unregister removes', () => {
    const custom = defineTool({
      name: 'shell',
      description: 'A custom shell.',
      parameters: z.object({ command: z.string() }),
      execute: async () => ({ output: 'custom', isError: false }),
    });
    const registry = new ToolRegistry(createDefaultTools(['shell', 'grep']).tools()).register(custom);
    expect(registry.get('shell')?.description).toBe('A custom shell.');
    expect(registry.unregister('grep')).toBe(true);
    expect(registry.names()).toEqual(['shell']);
  });
});
