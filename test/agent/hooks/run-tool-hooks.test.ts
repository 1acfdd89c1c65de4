import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToolHooks, type ToolCallMeta } from '../../../src/agent/hooks/run-tool-hooks.js';
import { useWorkspace } from '../tools/tool-fixtures.js';

const meta: ToolCallMeta = {
  toolName: 'shell',
  callId: 'call-7',
  arguments: { command: 'ls' },
  sessionId: 'sess-1',
  nodeId: 'implement',
};

describe('runToolHooks', () => {
  const ws = useWorkspace({ baseEnv: { PATH: process.env['PATH'], HOOK_API_KEY: 'sk-hidden' } });

  it('runs pre and post around the call with metadata as env vars and stdin JSON', async () => {
    let ran = false;
    const { result, skipped, hooks } = await runToolHooks(
      {
        pre: 'echo "$ATTRACTOR_HOOK_PHASE $ATTRACTOR_TOOL_NAME $ATTRACTOR_TOOL_CALL_ID $ATTRACTOR_NODE_ID [$HOOK_API_KEY]" > pre.txt; cat > pre.json',
        post: 'echo "$ATTRACTOR_TOOL_ARGUMENTS $ATTRACTOR_TOOL_IS_ERROR" > post.txt; cat > post.json',
      },
      meta,
      async () => {
        ran = true;
        return { output: 'a\nb', isError: false };
      },
      { env: ws.env },
    );
    expect(ran).toBe(true);
    expect(skipped).toBe(false);
    expect(result).toEqual({ output: 'a\nb', isError: false });
    expect(hooks.map((h) => [h.phase, h.exitCode])).toEqual([
      ['pre', 0],
      ['post', 0],
    ]);
    expect(readFileSync(join(ws.dir, 'pre.txt'), 'utf8')).toBe('pre shell call-7 implement []\n');
    expect(JSON.parse(readFileSync(join(ws.dir, 'pre.json'), 'utf8'))).toEqual({
      phase: 'pre',
      tool_name: 'shell',
      tool_call_id: 'call-7',
      arguments: { command: 'ls' },
      session_id: 'sess-1',
      node_id: 'implement',
    });
    expect(readFileSync(join(ws.dir, 'post.txt'), 'utf8')).toBe('{"command":"ls"} false\n');
    expect(JSON.parse(readFileSync(join(ws.dir, 'post.json'), 'utf8'))).toMatchObject({
      phase: 'post',
      output: 'a\nb',
      is_error: false,
    });
  });

  it('a failing pre-hook skips the call and tells the model why', async () => {
    let ran = false;
    const { result, skipped, hooks } = await runToolHooks(
      { pre: 'echo "shell is not allowed here" >&2; exit 2', post: 'touch post-ran' },
      meta,
      async () => {
        ran = true;
        return { output: 'x', isError: false };
      },
      { env: ws.env },
    );
    expect(ran).toBe(false);
    expect(skipped).toBe(true);
    expect(result).toEqual({
      output:
        'Tool call skipped: the pre-tool hook (echo "shell is not allowed here" >&2; exit 2) exited with code 2.\nHook output:\nshell is not allowed here',
      isError: true,
    });
    expect(hooks).toHaveLength(1);
    expect(await ws.env.fileExists('post-ran')).toBe(false);
  });

  it('a failing post-hook is only reported', async () => {
    const { result, hooks } = await runToolHooks(
      { post: 'exit 1' },
      meta,
      async () => ({ output: 'done', isError: false }),
      { env: ws.env },
    );
    expect(result).toEqual({ output: 'done', isError: false });
    expect(hooks).toEqual([{ phase: 'post', command: 'exit 1', exitCode: 1, timedOut: false, output: '' }]);
  });

  it('a hanging pre-hook times out and skips the call', async () => {
    const { skipped, result } = await runToolHooks(
      { pre: 'sleep 30' },
      meta,
      async () => ({ output: 'x', isError: false }),
      { env: ws.env, timeoutMs: 200 },
    );
    expect(skipped).toBe(true);
    expect(result.output).toMatch(/^Tool call skipped: the pre-tool hook \(sleep 30\) timed out\./);
  });

  it('no hooks: just the call', async () => {
    const { result, hooks } = await runToolHooks({}, meta, async () => ({ output: 'ok', isError: false }), {
      env: ws.env,
    });
    expect(result.output).toBe('ok');
    expect(hooks).toEqual([]);
  });
});
