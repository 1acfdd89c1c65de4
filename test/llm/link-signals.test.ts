import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RequestTimeoutError } from '../../src/llm/errors/request-timeout-error.js';
import { linkSignals } from '../../src/llm/link-signals.js';

describe('linkSignals', () => {
  it("aborts every live link with the caller's reason, and not the disposed ones", () => {
    const caller = new AbortController();
    const links = Array.from({ length: 5 }, () => linkSignals(caller.signal, undefined, 'call'));
    links[1]!.dispose();
    links[3]!.dispose();
    const reason = new Error('stop');
    caller.abort(reason);
    expect(links.map((link) => link.signal.aborted)).toEqual([true, false, true, false, true]);
    expect(links[0]!.signal.reason).toBe(reason);
    expect(links.every((link) => !link.timedOut())).toBe(true);
  });

  it('adds one abort listener to a caller signal however many calls follow it, gone once it fired', () => {
    const caller = new AbortController();
    const before = getEventListeners(caller.signal, 'abort').length;
    for (let i = 0; i < 100; i++) linkSignals(caller.signal, undefined, 'call').dispose();
    const live = linkSignals(caller.signal, undefined, 'call');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(before + 1);
    caller.abort();
    expect(live.signal.aborted).toBe(true);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(before);
  });

  it('starts aborted when the caller already is, with its reason', () => {
    const caller = new AbortController();
    caller.abort('early');
    const link = linkSignals(caller.signal, undefined, 'call');
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe('early');
  });

  it('a link made after the caller aborted (a second input) is aborted too', () => {
    const caller = new AbortController();
    linkSignals(caller.signal, undefined, 'call').dispose();
    caller.abort('gone');
    expect(linkSignals(caller.signal, undefined, 'call').signal.reason).toBe('gone');
  });

  it('times out on its own, saying so, without touching the caller', async () => {
    const caller = new AbortController();
    const link = linkSignals(caller.signal, 5, 'claude stream');
    await new Promise((resolve) => link.signal.addEventListener('abort', resolve, { once: true }));
    expect(link.timedOut()).toBe(true);
    expect(link.signal.reason).toBeInstanceOf(RequestTimeoutError);
    expect((link.signal.reason as Error).message).toBe('claude stream timed out after 5 ms');
    expect(caller.signal.aborted).toBe(false);
    link.dispose();
  });
});

describe('linkSignals while the caller aborts', () => {
  it('skips a link that an earlier link’s abort handler disposed, as a removed listener would be', () => {
    const caller = new AbortController();
    const first = linkSignals(caller.signal, undefined, 'call');
    const second = linkSignals(caller.signal, undefined, 'call');
    first.signal.addEventListener('abort', () => second.dispose());
    caller.abort();
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(false);
  });
});
