import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRequestDeadline } from '../../../../src/llm/providers/shared/request-deadline.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startRequestDeadline', () => {
  it('aborts with timedOut set when the time runs out', () => {
    const deadline = startRequestDeadline(200);
    vi.advanceTimersByTime(199);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(true);
  });

  it('restarts the timer on touch and stops it on pause', () => {
    const deadline = startRequestDeadline(200);
    vi.advanceTimersByTime(150);
    deadline.touch();
    vi.advanceTimersByTime(150);
    expect(deadline.signal.aborted).toBe(false);
    deadline.pause();
    vi.advanceTimersByTime(10_000);
    expect(deadline.signal.aborted).toBe(false);
    deadline.touch();
    vi.advanceTimersByTime(200);
    expect(deadline.timedOut).toBe(true);
  });

  it('follows the caller’s signal without calling it a timeout', () => {
    const caller = new AbortController();
    const deadline = startRequestDeadline(200, caller.signal);
    caller.abort();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(false);
  });

  it('starts aborted when the caller’s signal already is', () => {
    expect(startRequestDeadline(undefined, AbortSignal.abort()).signal.aborted).toBe(true);
  });

  it('never fires without a timeout, nor after dispose', () => {
    const caller = new AbortController();
    const none = startRequestDeadline(undefined);
    const disposed = startRequestDeadline(100, caller.signal);
    disposed.dispose();
    vi.advanceTimersByTime(1000);
    caller.abort();
    expect(none.signal.aborted).toBe(false);
    expect(disposed.signal.aborted).toBe(false);
  });
});
