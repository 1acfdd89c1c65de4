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

/** Lets Ink flush a render (and the run-state throttle, 33 ms). */
export const settle = (ms = 60): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const lines = (frame: string): string[] => frame.split('\n');
