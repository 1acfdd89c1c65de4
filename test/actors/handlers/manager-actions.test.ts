import { describe, expect, it } from 'vitest';
import { parseManagerActions } from '../../../src/actors/handlers/manager-actions.js';

describe('parseManagerActions', () => {
  it.each<[string | undefined, string[]]>([
    [undefined, ['observe', 'wait']],
    ['observe,steer,wait', ['observe', 'steer', 'wait']],
    ['steer wait', ['steer', 'wait']],
    [' observe , observe ', ['observe']],
    ['', []],
  ])('%j → %j', (value, actions) => {
    const parsed = parseManagerActions(value);
    expect(parsed.ok && [...parsed.actions]).toEqual(actions);
  });

  it('reports the first unknown action', () => {
    expect(parseManagerActions('observe,Steer,x')).toEqual({ ok: false, unknown: 'Steer' });
  });
});
