import { describe, expect, it } from 'vitest';
import { canonicalAttrKey } from '../../../src/compiler/attributes/attribute-aliases.js';
import type { RawAttr } from '../../../src/compiler/attributes/raw-attr.js';
import { typeAttributes } from '../../../src/compiler/attributes/type-attributes.js';

const loc = { line: 3, column: 7, file: 'p.dot' };
const raw = (key: string, value: string, explicit = true): RawAttr => ({ key, value, loc, explicit });

describe('typeAttributes: converting DOT strings', () => {
  it.each([
    ['node', 'max_retries', '3', 3],
    ['node', 'max_retries', ' 3 ', 3],
    ['node', 'max_retries', '2.0', 2],
    ['node', 'max_retries', '-1', -1],
    ['node', 'max_tokens', '4096', 4096],
    ['node', 'auto_compact', 'true', true],
    ['graph', 'auto_compact', 'false', false],
    ['node', 'join_k', '2', 2],
    ['node', 'max_parallel', '5', 5],
    ['node', 'manager.max_cycles', '1000', 1000],
    ['node', 'temperature', '0.7', 0.7],
    ['node', 'temperature', '.5', 0.5],
    ['node', 'temperature', '1', 1],
    ['edge', 'weight', '2', 2],
    ['edge', 'weight', '1.5', 1.5],
    ['edge', 'weight', '-3', -3],
    ['node', 'goal_gate', 'true', true],
    ['node', 'goal_gate', 'TRUE', true],
    ['node', 'goal_gate', 'Yes', true],
    ['node', 'goal_gate', '1', true],
    ['node', 'goal_gate', 'false', false],
    ['node', 'goal_gate', 'no', false],
    ['node', 'goal_gate', '0', false],
    ['node', 'auto_status', 'false', false],
    ['node', 'allow_partial', 'true', true],
    ['edge', 'loop_restart', 'true', true],
    ['edge', 'llm_decide', 'yes', true],
    ['node', 'timeout', '900s', 900_000],
    ['node', 'timeout', '15m', 900_000],
    ['node', 'timeout', '250ms', 250],
    ['node', 'timeout', '2h', 7_200_000],
    ['node', 'timeout', '1d', 86_400_000],
    ['node', 'timeout', '1.5s', 1500],
    ['node', 'timeout', '30', 30_000],
    ['node', 'human.timeout', '5m', 300_000],
    ['node', 'manager.poll_interval', '1ms', 1],
    ['graph', 'manager.poll_interval', '45s', 45_000],
    ['graph', 'default_max_retries', '2', 2],
    ['node', 'prompt', 'Say "hi"\nthen stop', 'Say "hi"\nthen stop'],
    ['node', 'shape', 'Mdiamond', 'Mdiamond'],
    ['edge', 'condition', 'outcome = success', 'outcome = success'],
    ['graph', 'goal', '', ''],
  ] as const)('%s %s=%j gives %j', (owner, key, value, expected) => {
    const typed = typeAttributes(owner, [raw(key, value)], { describe: 'Subject' });
    expect(typed.diagnostics).toEqual([]);
    expect((typed.attrs as Record<string, unknown>)[key]).toEqual(expected);
    expect(typed.attrLocs[key]).toEqual(loc);
  });

  it.each([
    ['node', 'max_retries', 'three', 'an integer'],
    ['node', 'max_retries', '2.5', 'an integer'],
    ['node', 'goal_gate', 'outcome = success', 'a boolean'],
    ['node', 'goal_gate', 'maybe', 'a boolean'],
    ['node', 'timeout', 'soon', 'a duration'],
    ['node', 'timeout', '10 minutes', 'a duration'],
    ['node', 'temperature', 'hot', 'a number'],
    ['edge', 'weight', 'heavy', 'a number'],
    ['edge', 'loop_restart', 'sometimes', 'a boolean'],
    ['graph', 'default_max_retries', 'many', 'an integer'],
    ['node', 'max_tokens', 'lots', 'a positive integer'],
    ['node', 'max_tokens', '0', 'a positive integer'],
    ['node', 'max_tokens', '-5', 'a positive integer'],
    ['node', 'auto_compact', 'sometimes', 'a boolean'],
    ['graph', 'auto_compact', 'maybe', 'a boolean'],
  ] as const)('%s %s=%j is an attribute_type warning and stays unset', (owner, key, value, expected) => {
    const subject =
      owner === 'edge'
        ? { describe: 'Edge a -> b', edge: { source: 'a', target: 'b' } }
        : { describe: 'Node a', node_id: 'a' };
    const typed = typeAttributes(owner, [raw(key, value)], subject);
    expect((typed.attrs as Record<string, unknown>)[key]).toBeUndefined();
    expect(typed.diagnostics).toHaveLength(1);
    const [diagnostic] = typed.diagnostics;
    expect(diagnostic).toMatchObject({ rule: 'attribute_type', severity: 'warning', loc });
    expect(diagnostic!.message).toContain(key);
    expect(diagnostic!.message).toContain(JSON.stringify(value));
    expect(diagnostic!.message).toContain(expected);
    if (owner === 'edge') expect(diagnostic!.edge).toEqual({ source: 'a', target: 'b' });
    else expect(diagnostic!.node_id).toBe('a');
  });

  // A hostile 100 KB value used to be echoed whole, making one 100 KB warning line.
  it('quotes only the start of a huge wrong value', () => {
    const value = `${'9'.repeat(50_000)}x`;
    const typed = typeAttributes('node', [raw('timeout', value)], { describe: 'Node a', node_id: 'a' });
    expect(typed.diagnostics).toHaveLength(1);
    expect(typed.diagnostics[0]!.message.length).toBeLessThan(400);
    expect(typed.diagnostics[0]!.message).toContain('(50001 characters)');
  });

  it('treats an empty value of a typed attribute as unset, without a warning', () => {
    const typed = typeAttributes('node', [raw('max_retries', ''), raw('timeout', ' ')], {
      describe: 'Node a',
    });
    expect(typed.attrs).toEqual({});
    expect(typed.diagnostics).toEqual([]);
  });

  it('keeps unknown keys as strings in extra, with their location', () => {
    const typed = typeAttributes('node', [raw('output_key', 'x'), raw('rankdir', 'LR')], {
      describe: 'Node a',
    });
    expect(typed.extra).toEqual({ output_key: 'x', rankdir: 'LR' });
    expect(typed.attrs).toEqual({});
    expect(typed.attrLocs.output_key).toEqual(loc);
  });

  it('records no location for inherited defaults', () => {
    const typed = typeAttributes('node', [raw('shape', 'box', false)], { describe: 'Node a' });
    expect(typed.attrs).toEqual({ shape: 'box' });
    expect(typed.attrLocs).toEqual({});
  });

  it('does not confuse keys with Object.prototype members', () => {
    const typed = typeAttributes('node', [raw('constructor', 'x'), raw('toString', 'y')], {
      describe: 'Node a',
    });
    expect(typed.extra).toEqual({ constructor: 'x', toString: 'y' });
    expect(typed.diagnostics).toEqual([]);
  });
});

describe('canonicalAttrKey', () => {
  it.each([
    ['node', 'model', 'llm_model'],
    ['node', 'provider', 'llm_provider'],
    ['node', 'retry_preset', 'retry_policy'],
    ['node', 'classes', 'class'],
    ['node', 'class', 'class'],
    ['node', 'llm_model', 'llm_model'],
    ['graph', 'default_max_retry', 'default_max_retries'],
    ['graph', 'model', 'model'],
    ['edge', 'model', 'model'],
    ['node', 'constructor', 'constructor'],
  ] as const)('%s %s → %s', (owner, key, expected) => {
    expect(canonicalAttrKey(owner, key)).toBe(expected);
  });
});
