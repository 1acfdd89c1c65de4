import { describe, expect, it } from 'vitest';
import { conditionsCover, parseCondition } from '../../../src/compiler/conditions/index.js';

describe('conditionsCover', () => {
  it.each([
    { conditions: ['outcome=success'], status: 'success', covers: true },
    { conditions: ['outcome=success'], status: 'partial_success', covers: false },
    { conditions: ['x=a', 'x!=a'], status: 'success', covers: true },
    { conditions: ['x=a', 'x=b'], status: 'success', covers: false },
    { conditions: ['x in [a, b]', '!(x in [a, b])'], status: 'success', covers: true },
    { conditions: ['x>=3', 'x<3'], status: 'success', covers: false }, // unset: numeric comparisons are false
    { conditions: ['x>=3', 'x<3', 'x=""'], status: 'success', covers: false }, // "abc" is not a number either
    { conditions: ['x>=3', '!(x>=3)'], status: 'success', covers: true },
    { conditions: ['preferred_label=ship', 'preferred_label!=ship'], status: 'success', covers: true },
    {
      conditions: ['outcome=success && ready', 'outcome=success && !ready'],
      status: 'success',
      covers: true,
    },
    { conditions: ['a && b', '!a', '!b'], status: 'success', covers: true },
    { conditions: ['a && b', '!a'], status: 'success', covers: false },
    { conditions: [''], status: 'success', covers: true },
  ] as const)('$conditions after $status: $covers', ({ conditions, status, covers }) => {
    expect(
      conditionsCover(
        conditions.map((c) => parseCondition(c)),
        status,
      ),
    ).toBe(covers);
  });

  it('leaves the question open when there are too many combinations to try', () => {
    const many = Array.from({ length: 8 }, (_, i) => parseCondition(`k${i}=a || k${i}=b`));
    expect(conditionsCover(many, 'success')).toBeUndefined();
  });
});
