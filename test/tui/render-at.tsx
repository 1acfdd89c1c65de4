import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';

/**
 * ink-testing-library's fake terminal is 100 columns; this renders at the width asked (80, 120) by
 * changing it and sending the resize Ink listens for, and strips colour codes for text assertions.
 */
export interface RenderedAt {
  frame: () => string;
  frames: string[];
  stdin: { write: (data: string) => void };
  unmount: () => void;
}

export function renderAt(tree: ReactElement, columns: number): RenderedAt {
  const app = render(tree);
  Object.defineProperty(app.stdout, 'columns', { get: () => columns, configurable: true });
  app.stdout.emit('resize');
  return {
    frames: app.frames,
    stdin: app.stdin,
    unmount: app.unmount,
    frame: (): string => (app.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, ''),
  };
}

/**
 * ink-testing-library draws each render at once: a frame asserted right after `renderAt` or a store
 * change is already there. What follows a key or a timer is waited for with `frameShows`/`frameWhere`.
 * `settle` is only a pause for tests that measure a rate over time.
 */
export const settle = (ms = 60): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const lines = (frame: string): string[] => frame.split('\n');

/**
 * Waits until the last frame passes `check` (Ink draws after React state settles, a key's effect a few
 * ticks later); the deadline only guards against a hang, and the error shows the last frame.
 */
export async function frameWhere(
  app: RenderedAt,
  check: (frame: string) => boolean,
  what: string = String(check),
): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const frame = app.frame();
    if (check(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`the frame never showed ${what}; last frame:\n${frame}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits until the last frame contains `text` or matches `pattern`. */
export const frameShows = (app: RenderedAt, wanted: string | RegExp): Promise<string> =>
  frameWhere(
    app,
    (frame) => (typeof wanted === 'string' ? frame.includes(wanted) : wanted.test(frame)),
    String(wanted),
  );
