import { describe, expect, it } from 'vitest';
import type { HandlerHook } from '../../src/actors/handler-hook.js';
import { HandlerNotFoundError } from '../../src/actors/handler-not-found-error.js';
import type { NodeHandler } from '../../src/actors/handler-types.js';
import { codergenHandler } from '../../src/actors/handlers/codergen.js';
import { createDefaultRegistry, HandlerRegistry } from '../../src/actors/registry.js';
import { BUILTIN_HANDLER_TYPES } from '../../src/compiler/ir.js';

const custom: NodeHandler = async () => ({ status: 'skipped' });

describe('HandlerRegistry', () => {
  it('registers, finds and lists handlers', () => {
    const registry = new HandlerRegistry().register('lint', custom);
    expect(registry.has('lint')).toBe(true);
    expect(registry.has('other')).toBe(false);
    expect(registry.get('lint')).toBe(custom);
    expect(registry.types()).toEqual(['lint']);
  });

  it('falls back to the default handler for unknown types', () => {
    const registry = new HandlerRegistry(custom);
    expect(registry.get('anything')).toBe(custom);
    expect(registry.has('anything')).toBe(false);
  });

  it('throws HandlerNotFoundError without a default', () => {
    expect(() => new HandlerRegistry().get('x')).toThrow(HandlerNotFoundError);
    expect(() => new HandlerRegistry().get('x')).toThrow(/"x"/);
  });

  it('replaces a registration', () => {
    const registry = createDefaultRegistry().register('codergen', custom);
    expect(registry.get('codergen')).toBe(custom);
  });

  it('adds hooks in order and lists them read-only', () => {
    const first: HandlerHook = { name: 'first' };
    const second: HandlerHook = { name: 'second' };
    const registry = new HandlerRegistry(custom, [first]).addHook(second);
    expect(registry.hooks).toEqual([first, second]);
    const listed = registry.hooks;
    expect(() => (listed as HandlerHook[]).push({ name: 'sneaky' })).toThrow(TypeError);
    // A list taken earlier is not changed by a later addHook (an invocation keeps the hooks it took).
    registry.addHook({ name: 'third' });
    expect(listed).toHaveLength(2);
    expect(registry.hooks.map((h) => h.name)).toEqual(['first', 'second', 'third']);
    expect(createDefaultRegistry().hooks).toEqual([]);
  });
});

describe('createDefaultRegistry', () => {
  it.each(BUILTIN_HANDLER_TYPES.map((type) => [type]))('registers the built-in %s', (type) => {
    expect(createDefaultRegistry().has(type)).toBe(true);
  });

  it('falls back to codergen', () => {
    expect(createDefaultRegistry().get('my_custom_type')).toBe(codergenHandler);
  });
});
