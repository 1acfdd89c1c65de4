import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { useEffect, useState } from 'react';
import { afterEach, expect, test } from 'vitest';
import { useAnimationFrame } from '../../src/tui/use-animation-frame.js';

// These tests count renders over a stretch of time (a rate, or none at all): the pause is the measurement.
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Seen {
  renders: number;
  frames: Set<number>;
}

/** Renders the frame; with `everyMs`, its own state also changes that often (streamed text, say). */
function Spinner({ seen, active, everyMs }: { seen: Seen; active: boolean; everyMs?: number }) {
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (everyMs === undefined) return;
    const timer = setInterval(() => setTicks((n) => n + 1), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  const frame = useAnimationFrame(60, active);
  seen.renders += 1;
  seen.frames.add(frame);
  return <Text>{frame}</Text>;
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

test('idle, it renders once a frame and the frame moves on every time', async () => {
  const seen: Seen = { renders: 0, frames: new Set() };
  unmount = render(<Spinner seen={seen} active />).unmount;
  await wait(500);
  // ~8 frames of 60 ms in 500 ms; a loaded machine may fire late, never early.
  expect(seen.renders).toBeGreaterThanOrEqual(4);
  expect(seen.renders).toBeLessThanOrEqual(10);
  expect(seen.frames.size).toBe(seen.renders);
});

test('while something else renders often, it adds no renders of its own but still moves on', async () => {
  const seen: Seen = { renders: 0, frames: new Set() };
  unmount = render(<Spinner seen={seen} active everyMs={20} />).unmount;
  await wait(500);
  const ownRenders = seen.renders;
  // ~25 renders from the 20 ms state changes; a 60 ms ticker of its own would add ~8 more.
  expect(ownRenders).toBeLessThanOrEqual(Math.ceil(500 / 20) + 2);
  expect(seen.frames.size).toBeGreaterThanOrEqual(4);
});

test('inactive, it never renders by itself', async () => {
  const seen: Seen = { renders: 0, frames: new Set() };
  unmount = render(<Spinner seen={seen} active={false} />).unmount;
  await wait(300);
  expect(seen.renders).toBe(1);
});
