import { describe, expect, it } from 'vitest';
import { resolveHandler } from '../../../src/compiler/parse/resolve-handler.js';

describe('resolveHandler', () => {
  it.each([
    [{}, 'codergen'],
    [{ shape: 'Mdiamond' }, 'start'],
    [{ shape: 'Msquare' }, 'exit'],
    [{ shape: 'box' }, 'codergen'],
    [{ shape: 'hexagon' }, 'wait.human'],
    [{ shape: 'diamond' }, 'conditional'],
    [{ shape: 'component' }, 'parallel'],
    [{ shape: 'tripleoctagon' }, 'parallel.fan_in'],
    [{ shape: 'parallelogram' }, 'tool'],
    [{ shape: 'house' }, 'stack.manager_loop'],
    [{ shape: 'ellipse' }, 'codergen'],
    [{ shape: 'toString' }, 'codergen'],
    [{ shape: 'hexagon', type: 'tool' }, 'tool'],
    [{ shape: 'box', type: ' ' }, 'codergen'],
    [{ type: 'my.custom' }, 'my.custom'],
  ])('%j → %s', (attrs, handler) => {
    expect(resolveHandler(attrs)).toBe(handler);
  });
});
