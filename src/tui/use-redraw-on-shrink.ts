import { WriteStream } from 'node:tty';
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/**
 * Erase the screen, then the scrollback, and put the cursor home. In that order: a terminal that
 * keeps a cleared screen in its scrollback (tmux's `scroll-on-clear`) has it removed at once.
 */
const CLEAR_ALL = '\u001b[2J\u001b[3J\u001b[H';

/** Long enough for the re-render at the new width and Ink's throttled write (30 fps) to be out. */
const SETTLE_MS = 120;

/**
 * A terminal made narrower re-wraps what it shows: every frame line wider than the new width becomes
 * two or more, the screen overflows, and the top of the old frame goes into the scrollback, where
 * widening again joins it back into torn frames; Ink's first frame after the resize is laid out at
 * the old width too. So once the resizing has settled, the screen and the scrollback are cleared and
 * the TUI draws its transcript (every finished node) and frame again from scratch: the scrollback
 * then holds the run and one frame, never remains of others (decision 0411). The returned number
 * changes on every redraw: the transcript's key, so its <Static> prints again. Widening needs
 * nothing: nothing on screen re-wraps.
 */
export function useRedrawOnShrink(): number {
  const { stdout } = useStdout();
  const [generation, setGeneration] = useState(0);
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
      stdout.write(CLEAR_ALL);
      setGeneration((g) => g + 1);
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
  return generation;
}
