import { describe, expect, it } from 'vitest';
import { diffLineClass } from '../../src/web/DiffView.js';

describe('diffLineClass: how the node panel colours a diff line', () => {
  it.each([
    ['diff --git a/x b/x', 'diff-file'],
    ['--- a/x', 'diff-file'],
    ['+++ b/x', 'diff-file'],
    ['@@ -1,2 +1,2 @@', 'diff-hunk'],
    ['+added', 'diff-add'],
    ['-removed', 'diff-del'],
    [' context', ''],
    ['\\ No newline at end of file', ''],
  ])('%j → %j', (line, expected) => {
    expect(diffLineClass(line)).toBe(expected);
  });
});
