import { describe, expect, it } from 'vitest';
import { LazySdk } from '../../../../src/llm/providers/shared/lazy-sdk.js';

describe('LazySdk', () => {
  it('builds the client at the first call only, and keeps it', async () => {
    let builds = 0;
    const sdk = new LazySdk(async () => ({ id: ++builds }));
    expect(builds).toBe(0);
    const [a, b] = await Promise.all([sdk.get(), sdk.get()]);
    expect(a).toBe(b);
    expect(await sdk.get()).toBe(a);
    expect(builds).toBe(1);
  });

  it('forgets a build that failed, so the next call tries again', async () => {
    let key: string | undefined;
    const sdk = new LazySdk(async () => {
      if (!key) throw new Error('no key');
      return { key };
    });
    await expect(sdk.get()).rejects.toThrow('no key');
    key = 'k';
    await expect(sdk.get()).resolves.toEqual({ key: 'k' });
  });

  it('builds anew after reset', async () => {
    let builds = 0;
    const sdk = new LazySdk(async () => ++builds);
    await sdk.get();
    sdk.reset();
    expect(await sdk.get()).toBe(2);
  });
});
