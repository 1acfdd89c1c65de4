import { describe, expect, it } from 'vitest';
import {
  headTailMarker,
  linesMarker,
  tailMarker,
  truncateChars,
  truncateLines,
  truncateOutput,
} from '../../../src/agent/truncation/truncate-output.js';
import { resolveLimits } from '../../../src/agent/truncation/truncation-limits.js';

describe('default limits', () => {
  it.each([
    ['read_file', 50_000, 'head_tail', undefined],
    ['shell', 30_000, 'head_tail', 256],
    ['grep', 20_000, 'tail', 200],
    ['glob', 20_000, 'tail', 500],
    ['list_dir', 20_000, 'tail', 500],
    ['spawn_agent', 20_000, 'head_tail', undefined],
    ['edit_file', 10_000, 'tail', undefined],
    ['apply_patch', 10_000, 'tail', undefined],
    ['write_file', 1_000, 'tail', undefined],
  ] as const)('%s: %i chars, %s, line limit %s', (tool, charLimit, mode, lineLimit) => {
    expect(resolveLimits(tool)).toEqual({ charLimit, mode, lineLimit });
  });

  it('config overrides win per tool; others keep their defaults', () => {
    const config = {
      charLimits: { shell: 100 },
      truncationModes: { shell: 'tail' as const },
      lineLimits: { grep: 5 },
    };
    expect(resolveLimits('shell', config)).toEqual({ charLimit: 100, mode: 'tail', lineLimit: 256 });
    expect(resolveLimits('grep', config)).toEqual({ charLimit: 20_000, mode: 'tail', lineLimit: 5 });
  });
});

describe('markers, word for word', () => {
  it('head_tail', () => {
    expect(headTailMarker(7)).toBe(
      '\n\n[WARNING: Tool output was truncated. 7 characters were removed from the middle. The full output is available in the event stream. If you need to see specific parts, re-run the tool with more targeted parameters.]\n\n',
    );
  });
  it('tail', () => {
    expect(tailMarker(7)).toBe(
      '[WARNING: Tool output was truncated. First 7 characters were removed. The full output is available in the event stream.]\n\n',
    );
  });
  it('lines', () => {
    expect(linesMarker(3)).toBe('\n[... 3 lines omitted ...]\n');
  });
});

describe('stage 1: characters', () => {
  it('leaves output at the limit alone', () => {
    expect(truncateChars('x'.repeat(10), 10, 'head_tail')).toBe('x'.repeat(10));
  });
  it('head_tail keeps limit/2 at each end', () => {
    const out = truncateChars(`${'a'.repeat(10)}${'m'.repeat(5)}${'z'.repeat(10)}`, 20, 'head_tail');
    expect(out).toBe(`${'a'.repeat(10)}${headTailMarker(5)}${'z'.repeat(10)}`);
  });
  it('tail keeps the last limit characters after the prefix', () => {
    expect(truncateChars('0123456789', 4, 'tail')).toBe(`${tailMarker(6)}6789`);
  });
  it('counts characters dropped before it saw the text', () => {
    const out = truncateChars('x'.repeat(30), 20, 'head_tail', 1000);
    expect(out).toContain(headTailMarker(1010));
    expect(truncateChars('short', 20, 'head_tail', 50)).toContain(headTailMarker(50));
  });
});

describe('stage 2: lines', () => {
  it('keeps limit/2 head lines and limit - limit/2 tail lines', () => {
    const text = Array.from({ length: 10 }, (_, i) => `l${i}`).join('\n');
    expect(truncateLines(text, 5)).toBe(`l0\nl1${linesMarker(5)}l7\nl8\nl9`);
  });
  it('leaves short output alone', () => {
    expect(truncateLines('a\nb', 2)).toBe('a\nb');
  });
});

describe('stage 2 at the limit', () => {
  // Lines are counted before anything is split: exactly `limit` lines stay whole, one more is cut.
  it.each([
    [1, 1],
    [4, 3],
    [4, 4],
    [4, 5],
    [256, 255],
    [256, 256],
    [256, 257],
  ])('a limit of %i lines, %i lines of output', (limit, count) => {
    const lines = Array.from({ length: count }, (_, i) => `line ${i}`);
    for (const output of [lines.join('\n'), `${lines.join('\n')}\n`]) {
      const total = output.split('\n').length;
      const out = truncateLines(output, limit);
      if (total <= limit) expect(out).toBe(output);
      else expect(out).toContain(linesMarker(total - limit));
    }
  });
});

describe('truncateOutput', () => {
  it('read_file of 100 000 characters: the marker, 50 000 characters kept', () => {
    const out = truncateOutput('read_file', 'x'.repeat(100_000));
    expect(out).toBe(`${'x'.repeat(25_000)}${headTailMarker(50_000)}${'x'.repeat(25_000)}`);
  });

  it('shell: characters first, then 256 lines', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const out = truncateOutput('shell', lines.join('\n'));
    const kept = out.split('\n');
    expect(out).toContain('[... 744 lines omitted ...]');
    expect(kept[0]).toBe('line 0');
    expect(kept.at(-1)).toBe('line 999');
  });

  it('characters run first: one huge line is cut although it is a single line', () => {
    const out = truncateOutput('shell', 'y'.repeat(40_000));
    expect(out).toContain(headTailMarker(10_000));
    expect(out.length).toBe(30_000 + headTailMarker(10_000).length);
  });

  it('write_file is cut to its 1 000 characters, tail mode', () => {
    expect(truncateOutput('write_file', 'w'.repeat(1500))).toBe(`${tailMarker(500)}${'w'.repeat(1000)}`);
  });

  it('unknown tools get the generous fallback', () => {
    expect(truncateOutput('my_tool', 'q'.repeat(50_000))).toBe('q'.repeat(50_000));
    expect(truncateOutput('my_tool', 'q'.repeat(50_001))).toContain(headTailMarker(1));
  });
});
