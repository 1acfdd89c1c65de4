import { describe, expect, it } from 'vitest';
import { paceSteps } from '../../src/machines/pace-steps.js';

/** A run whose records are written when the test says: each `recorded()` call waits for its own release. */
function pacedRun() {
  const releases: (() => void)[] = [];
  const runtime = {
    steps: 0,
    recordedAtLastYield: undefined as Promise<void> | undefined,
    services: {
      recorded: () => new Promise<void>((resolve) => releases.push(resolve)),
    },
  };
  const step = async (): Promise<'went on'> => {
    await paceSteps(runtime);
    return 'went on';
  };
  return { runtime, releases, step };
}

const settledWithin = <T>(promise: Promise<T>): Promise<T | 'waiting'> =>
  Promise.race([promise, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 20))]);

describe('paceSteps', () => {
  it('lets 63 steps through without waiting and asks for the records at the 64th', async () => {
    const { releases, step } = pacedRun();
    for (let i = 1; i < 64; i++) expect(await settledWithin(step())).toBe('went on');
    expect(releases).toHaveLength(0);
    // The first yield waits for nothing recorded before it: there was no earlier yield.
    expect(await settledWithin(step())).toBe('went on');
    expect(releases).toHaveLength(1);
  });

  it('makes the next yield wait until what was recorded by the one before is written', async () => {
    const { releases, step } = pacedRun();
    for (let i = 1; i <= 64; i++) await step();
    for (let i = 65; i < 128; i++) await step();
    const second = step();
    expect(await settledWithin(second)).toBe('waiting');
    releases[0]?.();
    expect(await second).toBe('went on');
    // And it asked for the records made up to itself, which the third yield will wait for.
    expect(releases).toHaveLength(2);
  });

  it('goes on after a failed write: the recorder stops the run with it', async () => {
    const { runtime, step } = pacedRun();
    runtime.services.recorded = () => Promise.reject(new Error('disk full'));
    for (let i = 1; i <= 128; i++) expect(await step()).toBe('went on');
  });

  it('waits for nothing when the run records nothing', async () => {
    const runtime = { steps: 0, recordedAtLastYield: undefined, services: {} };
    for (let i = 1; i <= 200; i++) await paceSteps(runtime);
    expect(runtime.steps).toBe(200);
  });
});
