import { describe, expect, it } from 'vitest';
import { colorsFor } from '../../src/cli/colors.js';
import { formatEventLine } from '../../src/cli/format-event-line.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';

const plain = colorsFor({ isTTY: false, env: {} });
// Each case gives only the fields the line shows.
const event = (kind: string, data: Record<string, unknown>, node_id?: string): PipelineEvent =>
  ({ kind, data, timestamp: '2026-01-01T00:00:00.000Z', ...(node_id ? { node_id } : {}) }) as PipelineEvent;

describe('formatEventLine', () => {
  it.each([
    ['success', '  ✓ test success'],
    ['fail', '  ✗ test fail: tests red'],
    ['partial_success', '  ◐ test partial_success'],
    ['retry', '  ↻ test retry'],
    ['skipped', '  – test skipped'],
  ])('a node that ends %s gets its own mark', (status, line) => {
    const data = status === 'fail' ? { status, failure_reason: 'tests red' } : { status };
    expect(formatEventLine(event('node.complete', data, 'test'), plain)).toBe(line);
  });

  it.each([
    [
      { attempt: 1, reason: 'rate limited', delay_ms: 350 },
      '  ↻ test retry 1: rate limited (next attempt in 350 ms)',
    ],
    [
      { attempt: 2, reason: 'rate limited', delay_ms: 1600 },
      '  ↻ test retry 2: rate limited (next attempt in 1.6 s)',
    ],
    [
      { attempt: 3, reason: 'rate limited', delay_ms: 54_000 },
      '  ↻ test retry 3: rate limited (next attempt in 54 s)',
    ],
    [{ attempt: 1, reason: 'older run' }, '  ↻ test retry 1: older run'],
  ])('a retry says how long the wait is: %o', (data, line) => {
    expect(formatEventLine(event('node.retry', data, 'test'), plain)).toBe(line);
  });

  it('a parallel fan-out says how many branches and which', () => {
    expect(formatEventLine(event('parallel.start', { branches: ['a', 'b', 'c'] }, 'fork'), plain)).toBe(
      '  ⇉ fork: 3 branches (a, b, c)',
    );
    expect(formatEventLine(event('parallel.start', { branches: ['only'] }, 'fork'), plain)).toBe(
      '  ⇉ fork: 1 branch (only)',
    );
  });

  it('an agent tool call gets a line of its own (agent text does not)', () => {
    const call = event('agent.tool_call_start', { tool_name: 'Write hello.txt', call_id: 'c' }, 'work');
    expect(formatEventLine(call, plain)).toBe('    · work Write hello.txt');
    expect(
      formatEventLine(event('agent.assistant_text_delta', { delta: 'Hi' }, 'work'), plain),
    ).toBeUndefined();
  });

  it('the start of a run names its run directory, relative to the working directory', () => {
    const start = event('pipeline.start', { name: 'demo', goal: 'g', run_dir: '/w/runs/x' });
    expect(formatEventLine(start, plain, '/w')).toBe('▶ demo — g\n  run directory: runs/x');
  });
});
