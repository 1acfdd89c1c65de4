import { useEffect, useState } from 'react';
import { followLines } from './follow-file.js';

/** The last `count` lines of a file another process is writing (a tool node's stdout.log). */
export function useOutputTail(path: string | undefined, count: number): string[] {
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    setLines([]);
    if (path === undefined) return;
    let tail: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let follower: ReturnType<typeof followLines> | undefined;
    const onLine = (line: string) => {
      tail.push(line);
      if (tail.length > count) tail = tail.slice(tail.length - count);
      // Many lines at once become one render.
      timer ??= setTimeout(() => {
        timer = undefined;
        setLines([...tail]);
      }, 33);
    };
    try {
      follower = followLines(path, onLine);
    } catch {
      // The node's directory does not exist (yet): nothing to show.
    }
    return () => {
      clearTimeout(timer);
      follower?.close();
    };
  }, [path, count]);
  return lines;
}
