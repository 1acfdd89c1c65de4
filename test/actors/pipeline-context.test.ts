import { describe, expect, it } from 'vitest';
import { ContextLogEntrySchema, PipelineContext } from '../../src/actors/pipeline-context.js';

describe('PipelineContext', () => {
  it.each([
    ['a present key', 'name', undefined, 'ada'],
    ['a missing key without default', 'nope', undefined, undefined],
    ['a missing key with default', 'nope', 7, 7],
    ['a key holding undefined is present', 'blank', 'd', undefined],
  ])('get: %s', (_, key, fallback, expected) => {
    const ctx = new PipelineContext({ name: 'ada', blank: undefined });
    expect(ctx.get(key, fallback)).toBe(expected);
  });

  it.each([
    ['string', 'ada', 'ada'],
    ['number', 3, '3'],
    ['boolean', false, 'false'],
    ['object as JSON', { a: [1] }, '{"a":[1]}'],
    ['null falls back', null, 'fb'],
  ])('getString: %s', (_, value, expected) => {
    expect(new PipelineContext({ k: value }).getString('k', 'fb')).toBe(expected);
  });

  it('getString defaults to the empty string for a missing key', () => {
    expect(new PipelineContext({}).getString('missing')).toBe('');
  });

  it('set collects updates that reads see, without touching the values it was given', () => {
    const values = Object.freeze({ a: 1, b: 2 });
    const ctx = new PipelineContext(values);
    ctx.set('a', 10);
    ctx.update({ c: 3 });
    expect(ctx.get('a')).toBe(10);
    expect(ctx.has('c')).toBe(true);
    expect(ctx.toDict()).toEqual({ a: 10, b: 2, c: 3 });
    expect(ctx.pendingUpdates()).toEqual({ a: 10, c: 3 });
    expect(values).toEqual({ a: 1, b: 2 });
  });

  it('snapshot is a deep copy', () => {
    const ctx = new PipelineContext({ list: [1, 2] });
    const snap = ctx.snapshot();
    (snap['list'] as number[]).push(3);
    expect(ctx.get('list')).toEqual([1, 2]);
  });

  it('clone is independent in values, updates and logs', () => {
    const ctx = new PipelineContext({ nested: { n: 1 } }, 'node1');
    ctx.appendLog('before');
    const copy = ctx.clone();
    copy.set('x', 1);
    copy.appendLog('in the clone');
    (copy.get('nested') as { n: number }).n = 2;
    expect(ctx.has('x')).toBe(false);
    expect(ctx.getLogs().map((l) => l.message)).toEqual(['before']);
    expect(copy.getLogs().map((l) => l.message)).toEqual(['before', 'in the clone']);
    expect(ctx.get('nested')).toEqual({ n: 1 });
  });

  it('appendLog records the node, a time and the message; structured entries keep their fields', () => {
    const ctx = new PipelineContext({}, 'build');
    ctx.appendLog('compiled');
    ctx.appendLog({ message: 'tests', passed: 12 });
    const logs = ctx.getLogs();
    expect(logs).toEqual([
      { node: 'build', time: expect.any(String), message: 'compiled' },
      { node: 'build', time: expect.any(String), message: 'tests', passed: 12 },
    ]);
    for (const entry of logs) expect(ContextLogEntrySchema.parse(entry)).toEqual(entry);
    expect(Number.isNaN(Date.parse(logs[0]?.time ?? ''))).toBe(false);
  });
});
