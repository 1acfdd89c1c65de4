import { describe, expect, expectTypeOf, it } from 'vitest';
import { definedFields } from '../../src/shared/defined-fields.js';

describe('definedFields', () => {
  it.each([
    ['drops undefined', { a: undefined, b: 1 }, { b: 1 }],
    [
      'keeps the falsy values that are not undefined',
      { n: 0, s: '', f: false, z: null },
      { n: 0, s: '', f: false, z: null },
    ],
    ['nothing defined: an empty object', { a: undefined }, {}],
    ['keeps objects as they are (no copy)', { o: { deep: undefined } }, { o: { deep: undefined } }],
  ])('%s', (_name, fields, expected) => {
    const result = definedFields(fields);
    expect(result).toStrictEqual(expected);
    expect(Object.keys(result)).toEqual(Object.keys(expected));
  });

  it('does not override a default when spread after it', () => {
    const defaults = { model: 'small', retries: 2 };
    const model: string | undefined = undefined;
    expect({ ...defaults, ...definedFields({ model, retries: 3 }) }).toEqual({ model: 'small', retries: 3 });
  });

  it('types every field as optional and never undefined', () => {
    const fields = definedFields({ a: 'x' as string | undefined, b: 1 });
    expectTypeOf(fields).toEqualTypeOf<{ a?: string; b?: number }>();
  });
});
