import { WriteStream } from 'node:tty';
import { useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';

/** Erase the visible screen and put the cursor home (the scrollback is left alone). */
const CLEAR_SCREEN = '\u001b[2J\u001b[H';

/** Long enough for the re-render at the new width and Ink's throttled write (30 fps) to be out. */
const SETTLE_MS = 120;

export interface Redraw {
  /** Changes on every redraw: the transcript's key, so its <Static> prints again. */
  generation: number;
  /** The first transcript entry printed again (those that fit on the cleared screen). */
  from: number;
}

/**
 * A terminal made narrower re-wraps what is on screen, and Ink's first frame after the resize is
 * still laid out at the old width (the app's width state changes one render later): Ink then
 * erases fewer lines than the wrapped frame occupies, leaving torn remains of old frames. Once the
 * resizing has settled, the visible screen is cleared and drawn again from scratch: the transcript
 * of finished nodes (as much as fits above the frame, from `firstKept(rows)` on) is printed again
 * through a fresh <Static>, which makes Ink erase and redraw the frame too. Widening needs nothing:
 * nothing on screen re-wraps.
 */
export function useRedrawOnShrink(firstKept: (rows: number) => number): Redraw {
  const { stdout } = useStdout();
  const [redraw, setRedraw] = useState<Redraw>({ generation: 0, from: 0 });
  const keep = useRef(firstKept);
  keep.current = firstKept;
  useEffect(() => {
    // Only a real terminal re-wraps its screen (a test's fake stdout keeps every frame as written).
    if (!(stdout instanceof WriteStream)) return;
    let columns = stdout.columns;
    let shrunk = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = () => {
      timer = undefined;
      if (!shrunk) return;
      shrunk = false;
      stdout.write(CLEAR_SCREEN);
      const from = keep.current(stdout.rows || 24);
      setRedraw((r) => ({ generation: r.generation + 1, from }));
    };
    const onResize = () => {
      if (stdout.columns < columns) shrunk = true;
      columns = stdout.columns;
      // A drag sends many resizes: redraw once, after the last.
      clearTimeout(timer);
      timer = setTimeout(settle, SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      clearTimeout(timer);
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return redraw;
}
