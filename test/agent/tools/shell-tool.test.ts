import { describe, expect, it } from 'vitest';
import { runAgentTool } from '../../../src/agent/tools/run-agent-tool.js';
import { shellTool, timeoutNotice } from '../../../src/agent/tools/shell-tool.js';
import { headTailMarker } from '../../../src/agent/truncation/truncate-output.js';
import { eventuallyGone, useWorkspace } from './tool-fixtures.js';

describe('shell', () => {
  const ws = useWorkspace({ baseEnv: { PATH: process.env['PATH'], FOO_API_KEY: 'sk-fake-123' } });
  const shell = (args: Record<string, unknown>, extra = {}) => runAgentTool(shellTool, args, ws.ctx(extra));

  it('returns stdout and a STDERR section', async () => {
    expect(await shell({ command: 'echo out; echo err >&2' })).toMatchObject({
      output: 'out\nSTDERR:\nerr',
      isError: false,
    });
  });

  it('a non-zero exit is an error result with the code', async () => {
    expect(await shell({ command: 'echo no; exit 4' })).toMatchObject({
      output: 'no\n[Exit code: 4]',
      isError: true,
    });
  });

  it('times out with its notice, partial output kept', async () => {
    const result = await shell({ command: 'echo started; sleep 30', timeout_ms: 200 });
    expect(result.isError).toBe(true);
    expect(result.output).toBe(`started\n${timeoutNotice(200)}`);
    expect(timeoutNotice(200)).toBe(
      '[ERROR: Command timed out after 200ms. Partial output is shown above.\nYou can retry with a longer timeout by setting the timeout_ms parameter.]',
    );
  });

  it('uses the session default timeout and caps a requested one at the ceiling', async () => {
    const byDefault = await shell({ command: 'sleep 30' }, { defaultCommandTimeoutMs: 150 });
    expect(byDefault.output).toBe(timeoutNotice(150));
    const capped = await shell({ command: 'sleep 30', timeout_ms: 999_999 }, { maxCommandTimeoutMs: 150 });
    expect(capped.output).toBe(timeoutNotice(150));
  });

  it('streams output deltas while running', async () => {
    const deltas: string[] = [];
    await shell(
      { command: 'echo one; sleep 0.1; echo two' },
      { onOutputDelta: (c: string) => deltas.push(c) },
    );
    expect(deltas.join('')).toBe('one\ntwo\n');
    expect(deltas.length).toBeGreaterThanOrEqual(2);
  });

  it('never sees a fake FOO_API_KEY', async () => {
    const { output } = await shell({ command: 'env; echo "[$FOO_API_KEY]"' });
    expect(output).not.toContain('sk-fake-123');
    expect(output).toContain('[]');
  });

  it('abort kills a running sleep: no process left behind', async () => {
    const controller = new AbortController();
    let pid = 0;
    const result = await shell(
      { command: 'sleep 30 & echo $!; wait', timeout_ms: 60_000 },
      {
        signal: controller.signal,
        onOutputDelta: (chunk: string) => {
          pid = Number(chunk.trim());
          controller.abort();
        },
      },
    );
    expect(result.isError).toBe(true);
    expect(result.output).toContain('[Command aborted]');
    expect(await eventuallyGone(pid)).toBe(true);
  });

  it('large output: the model sees 30 000 characters and the marker', async () => {
    const result = await shell({ command: `head -c 100000 /dev/zero | tr '\\0' y` });
    expect(result.output).toBe('y'.repeat(100_000));
    expect(result.truncated).toBe(`${'y'.repeat(15_000)}${headTailMarker(70_000)}${'y'.repeat(15_000)}`);
  });

  it('many lines: at most 256 after the character stage', async () => {
    const result = await shell({ command: 'seq 1 5000' });
    const lines = result.truncated.split('\n');
    expect(result.truncated).toContain('[... 4744 lines omitted ...]');
    expect(lines[0]).toBe('1');
    expect(lines.at(-1)).toBe('5000');
  });
});
