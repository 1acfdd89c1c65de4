/**
 * The last lines of a long text that fill `rows` terminal rows at `width` columns, found by walking
 * back from the end, so a 100 KB streamed answer costs only what is shown (virtualised output).
 * Also says whether that tail begins inside a ``` code fence, which the markdown renderer needs.
 */
export function tailLines(
  text: string,
  rows: number,
  width: number,
): { lines: string[]; inFence: boolean; hidden: boolean } {
  const lines: string[] = [];
  let used = 0;
  let end = text.length;
  const cols = Math.max(1, width);
  while (end > 0 || (end === 0 && lines.length === 0 && text.length === 0)) {
    const start = text.lastIndexOf('\n', end - 1);
    let line = text.slice(start + 1, end);
    const height = Math.max(1, Math.ceil(line.length / cols));
    if (used + height > rows && lines.length > 0) break;
    if (used + height > rows) {
      // One line longer than the pane (a paragraph streamed without newlines): keep its end only.
      line = line.slice(line.length - Math.max(1, rows - used) * cols);
      lines.unshift(line);
      end = start + 1 + 1;
      break;
    }
    lines.unshift(line);
    used += height;
    if (start < 0) {
      end = -1;
      break;
    }
    end = start;
  }
  const hidden = end >= 0;
  let fences = 0;
  if (hidden) {
    for (let at = text.indexOf('```'); at >= 0 && at < end; at = text.indexOf('```', at + 3)) {
      if (at === 0 || text[at - 1] === '\n') fences += 1;
    }
  }
  return { lines, inFence: fences % 2 === 1, hidden };
}
