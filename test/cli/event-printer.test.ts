import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/cli-context.js';
import { colorsFor } from '../../src/cli/colors.js';
import { createEventPrinter } from '../../src/cli/event-printer.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';

function printed(events: PipelineEvent[]): string[] {
  let out = '';
  const io = { stdout: (t: string) => (out += t), stderr: () => {}, env: {}, isTTY: false, cwd: '/' };
  const ctx: CliContext = { io, colors: colorsFor(io), verbose: () => false, setExitCode: () => {} };
  const printer = createEventPrinter(false, ctx);
  for (const e of events) printer.print(e);
  return out.trimEnd().split('\n');
}

const at = '2026-11-27T00:00:00.000Z';
const agentError: PipelineEvent = {
  kind: 'agent.error',
  node_id: 'write',
  data: { error: 'anthropic: connection failed: Connection error.' },
  timestamp: at,
};

describe('plain event lines', () => {
  it('say an agent error that fails its node once: in the node’s line', () => {
    const lines = printed([
      agentError,
      {
        kind: 'node.complete',
        node_id: 'write',
        data: {
          status: 'fail',
          failure_reason:
            'anthropic could not be reached at x, even after retries: anthropic: connection failed: Connection error.',
        },
        timestamp: at,
      },
    ]);
    expect(lines).toEqual([
      '  ✗ write fail: anthropic could not be reached at x, even after retries: anthropic: connection failed: Connection error.',
    ]);
  });

  it('still say an agent error the agent went on after', () => {
    const lines = printed([
      agentError,
      {
        kind: 'agent.tool_call_start',
        node_id: 'write',
        data: { tool_name: 'shell', tool_call_id: 'c1', arguments: { command: 'ls' } },
        timestamp: at,
      },
      { kind: 'node.complete', node_id: 'write', data: { status: 'success' }, timestamp: at },
    ]);
    expect(lines).toEqual([
      '    ✗ write agent error: anthropic: connection failed: Connection error.',
      '    · write shell ls',
      '  ✓ write success',
    ]);
  });
});
