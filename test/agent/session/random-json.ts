/** Seeded random JSON data for the tests of sameJson and jsonDigest (against the canonical texts). */

/** A seeded generator of numbers in [0, 1) (an LCG: the same seed gives the same data on every run). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Random JSON data from a small vocabulary, so equal values (in any key order) come up often. */
export function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0:
      return ['a', 'b', 'a:b', ''][Math.floor(next() * 4)];
    case 1:
      return [0, -0, 1, 2.5, 1e21][Math.floor(next() * 5)];
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return Math.floor(next() * 3);
    case 5:
      return 'x';
    case 6:
      return Array.from({ length: Math.floor(next() * 3) }, () => value(next, depth + 1));
    default: {
      const keys = ['p', 'q', 'r', '1', '10'].filter(() => next() < 0.5);
      if (next() < 0.5) keys.reverse();
      return Object.fromEntries(keys.map((key) => [key, value(next, depth + 1)]));
    }
  }
}

/** The same data with every object's keys inserted in another order. */
export function reordered(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(reordered);
  if (data === null || typeof data !== 'object') return data;
  return Object.fromEntries(
    Object.entries(data)
      .reverse()
      .map(([key, item]) => [key, reordered(item)]),
  );
}
