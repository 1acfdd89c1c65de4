import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RequestTimeoutError } from '../../src/llm/errors/request-timeout-error.js';
import { type LinkedSignal, linkSignals } from '../../src/llm/link-signals.js';

/** A timeout long enough never to fire in a test: the link then follows the caller like any timed call. */
const LONG = 60_000;
const signalOf = (link: LinkedSignal): AbortSignal => {
  if (!link.signal) throw new Error('expected a signal');
  return link.signal;
};

describe('linkSignals without a timeout', () => {
  it("is the caller's own signal, with no listener added, nothing to dispose and never a timeout", () => {
    const caller = new AbortController();
    const before = getEventListeners(caller.signal, 'abort').length;
    const link = linkSignals(caller.signal, undefined, 'call');
    expect(link.signal).toBe(caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(before);
    caller.abort('stop');
    expect(link.timedOut()).toBe(false);
    link.dispose();
  });

  it.each([undefined, 0, -1])('has no signal at all without a caller signal (timeout %s)', (timeout) => {
    const link = linkSignals(undefined, timeout, 'call');
    expect(link.signal).toBeUndefined();
    expect(link.timedOut()).toBe(false);
  });
});

describe('linkSignals with a timeout', () => {
  it("aborts every live link with the caller's reason, and not the disposed ones", () => {
    const caller = new AbortController();
    const links = Array.from({ length: 5 }, () => linkSignals(caller.signal, LONG, 'call'));
    links[1]!.dispose();
    links[3]!.dispose();
    const reason = new Error('stop');
    caller.abort(reason);
    expect(links.map((link) => signalOf(link).aborted)).toEqual([true, false, true, false, true]);
    expect(signalOf(links[0]!).reason).toBe(reason);
    expect(links.every((link) => !link.timedOut())).toBe(true);
    for (const link of links) link.dispose();
  });

  it('adds one abort listener to a caller signal however many calls follow it, gone once it fired', () => {
    const caller = new AbortController();
    const before = getEventListeners(caller.signal, 'abort').length;
    for (let i = 0; i < 100; i++) linkSignals(caller.signal, LONG, 'call').dispose();
    const live = linkSignals(caller.signal, LONG, 'call');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(before + 1);
    caller.abort();
    expect(signalOf(live).aborted).toBe(true);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(before);
    live.dispose();
  });

  it('starts aborted when the caller already is, with its reason', () => {
    const caller = new AbortController();
    caller.abort('early');
    const link = linkSignals(caller.signal, LONG, 'call');
    expect(signalOf(link).aborted).toBe(true);
    expect(signalOf(link).reason).toBe('early');
    link.dispose();
  });

  it('a link made after the caller aborted (a second input) is aborted too', () => {
    const caller = new AbortController();
    linkSignals(caller.signal, LONG, 'call').dispose();
    caller.abort('gone');
    const link = linkSignals(caller.signal, LONG, 'call');
    expect(signalOf(link).reason).toBe('gone');
    link.dispose();
  });

  it('times out on its own, saying so, without touching the caller', async () => {
    const caller = new AbortController();
    const link = linkSignals(caller.signal, 5, 'claude stream');
    await new Promise((resolve) => signalOf(link).addEventListener('abort', resolve, { once: true }));
    expect(link.timedOut()).toBe(true);
    expect(signalOf(link).reason).toBeInstanceOf(RequestTimeoutError);
    expect((signalOf(link).reason as Error).message).toBe('claude stream timed out after 5 ms');
    expect(caller.signal.aborted).toBe(false);
    link.dispose();
  });

  it('times out with no caller signal at all', async () => {
    const link = linkSignals(undefined, 5, 'call');
    await new Promise((resolve) => signalOf(link).addEventListener('abort', resolve, { once: true }));
    expect(link.timedOut()).toBe(true);
    link.dispose();
  });

  it('skips a link that an earlier link’s abort handler disposed, as a removed listener would be', () => {
    const caller = new AbortController();
    const first = linkSignals(caller.signal, LONG, 'call');
    const second = linkSignals(caller.signal, LONG, 'call');
    signalOf(first).addEventListener('abort', () => second.dispose());
    caller.abort();
    expect(signalOf(first).aborted).toBe(true);
    expect(signalOf(second).aborted).toBe(false);
    first.dispose();
  });
});
