// A terminal no one sees, for running the TUI off screen (bench/tui-stream.mjs):
// a screen that takes every write (handed to `onWrite`, if given) and a keyboard that never types. Ink
// wants both to look like TTYs: a sized screen, and a stdin it can put in raw mode for its keys.
import { Readable, Writable } from 'node:stream';

export function offscreenTerminal({ columns = 100, rows = 40, onWrite } = {}) {
  const stdout = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        onWrite?.(chunk);
        done();
      },
    }),
    { isTTY: true, columns, rows },
  );
  const stdin = Object.assign(new Readable({ read() {} }), {
    isTTY: true,
    setRawMode() {},
    ref() {},
    unref() {},
  });
  return { stdout, stdin };
}
