import { describe, expect, it } from 'vitest';
import {
  expandVars,
  parseVarsDeclaration,
  resolvePipelineVars,
} from '../../../src/compiler/vars/pipeline-vars.js';

describe('pipeline vars', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['feature', [{ name: 'feature' }]],
    [' feature , env=staging ,', [{ name: 'feature' }, { name: 'env', default: 'staging' }]],
    ['url=http://x/?a=b', [{ name: 'url', default: 'http://x/?a=b' }]],
  ])('parses %j', (text, expected) => {
    expect(parseVarsDeclaration(text)).toEqual(expected);
  });

  it('refuses a name that is not one', () => {
    expect(() => parseVarsDeclaration('1st, ok')).toThrow(/vars: "1st" is not a parameter name/);
  });

  it.each([
    ['$feature', 'login'],
    ['$features and $feature_x stay', '$features and $feature_x stay'],
    ['($feature)', '(login)'],
    ['$unknown $HOME', '$unknown $HOME'],
  ])('expands whole words only: %j', (text, expected) => {
    expect(expandVars(text, { feature: 'login' })).toBe(expected);
  });

  it('a value holding $& or $1 is inserted as written', () => {
    expect(expandVars('x=$feature', { feature: '$& $1' })).toBe('x=$& $1');
  });

  it('resolves --set over defaults, and names what is missing or unknown', () => {
    const declared = parseVarsDeclaration('feature, env=staging');
    expect(resolvePipelineVars(declared, { feature: 'a' })).toEqual({ feature: 'a', env: 'staging' });
    expect(() => resolvePipelineVars(declared, {})).toThrow(/parameter "feature" has no value/);
    expect(() => resolvePipelineVars(declared, { feature: 'a', ENV: 'x' })).toThrow(/did you mean "env"\?/);
    expect(() => resolvePipelineVars([], { x: '1' })).toThrow(/it declares none/);
  });
});
