import { describe, expect, it } from 'vitest';
import { colorsFor } from '../../../src/cli/colors.js';
import { formatEventLine } from '../../../src/cli/format-event-line.js';
import type { PipelineEvent } from '../../../src/shared/pipeline-event.js';

const plain = colorsFor({ env: { NO_COLOR: '1' }, isTTY: false });
const line = (kind: string, data: Record<string, unknown>, node_id = 'work') =>
  // Each case gives only the fields the line shows.
  formatEventLine({ kind, node_id, data, timestamp: '2026-01-01T00:00:00.000Z' } as PipelineEvent, plain);

describe('formatEventLine for agent events', () => {
  it.each([
    [
      'agent.tool_call_start',
      { tool_name: 'write_file', arguments: { path: 'a.txt', content: 'x' } },
      '    · work write_file a.txt',
    ],
    [
      'agent.tool_call_start',
      { tool_name: 'shell', arguments: { command: `echo ${'y'.repeat(80)}\nmore` } },
      `    · work shell echo ${'y'.repeat(54)}…`,
    ],
    [
      'agent.error',
      { error: 'anthropic refused the request' },
      '    ✗ work agent error: anthropic refused the request',
    ],
    ['router.error', { error: 'timeout' }, '    ? work router failed, routing by edges: timeout'],
    [
      'agent.context_window_warning',
      { usage_fraction: 0.84, message: 'Context usage at ~84% of context window' },
      '    ! work Context usage at ~84% of context window',
    ],
    [
      'agent.output_truncated',
      { max_tokens: 16384, message: 'output cut off at 16384 tokens: the agent was asked to continue' },
      '    ! work output cut off at 16384 tokens: the agent was asked to continue',
    ],
    [
      'agent.compaction',
      { removed_turns: 9, tokens_before: 180000, tokens_after: 50000 },
      '    ! work context compacted: 9 older turns summarised by an extra model call',
    ],
  ])('%s', (kind, data, expected) => {
    expect(line(kind, data)).toBe(expected);
  });

  it('prints nothing for streaming deltas', () => {
    expect(line('agent.assistant_text_delta', { text: 'hi' })).toBeUndefined();
  });
});
