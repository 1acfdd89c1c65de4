/**
 * The last lines of a long text that fill `rows` terminal rows at `width` columns, found by walking
 * back from the end, so a 100 KB streamed answer costs only what is shown (virtualised output).
 * Also says whether that tail begins inside a ``` code fence, and the fence's info string (its
 * language), which the markdown renderer needs.
 * Newlines at the very end make no empty lines (a streamed answer often ends with some); they are
 * skipped by index, as a `/\n+$/` replace would scan the whole text every frame.
 */
export function tailLines(
  text: string,
  rows: number,
  width: number,
): { lines: string[]; fence: string | undefined; hidden: boolean } {
  const lines: string[] = [];
  let used = 0;
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  const cols = Math.max(1, width);
  // `end` is where the next line (walking back) ends; -1 once the first line is taken.
  while (end >= 0) {
    const start = end === 0 ? -1 : text.lastIndexOf('\n', end - 1);
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
    end = start < 0 ? -1 : start;
  }
  const hidden = end >= 0;
  let fence: string | undefined;
  if (hidden) {
    for (let at = text.indexOf('```'); at >= 0 && at < end; at = text.indexOf('```', at + 3)) {
      if (at !== 0 && text[at - 1] !== '\n') continue;
      const eol = text.indexOf('\n', at);
      fence = fence === undefined ? text.slice(at + 3, eol < 0 ? text.length : eol).trim() : undefined;
    }
  }
  return { lines, fence, hidden };
}
