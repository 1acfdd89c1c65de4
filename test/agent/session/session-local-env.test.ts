import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalExecutionEnvironment } from '../../../src/agent/environment/local-execution-environment.js';
import { getProfile } from '../../../src/agent/profiles/get-profile.js';
import { createSession } from '../../../src/agent/session/session.js';
import { collect, kinds, scripted, tempDir } from './session-fixtures.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A real working directory with the real environment and the Anthropic profile's real tools. */
function realSession(turns: Parameters<typeof scripted>[0], toolHooks?: { pre?: string; post?: string }) {
  const dir = tempDir();
  const env = new LocalExecutionEnvironment({ workingDir: dir });
  const { adapter, client } = scripted(turns);
  const session = createSession({
    client,
    profile: getProfile('anthropic', { model: 'claude-sonnet-4-6' }),
    env,
    ...(toolHooks ? { toolHooks } : {}),
  });
  return { dir: env.workingDirectory, adapter, session };
}

describe('Session with the local environment and the built-in tools', () => {
  it('abort kills a running sleep started by the shell tool; no process is left', async () => {
    const { dir, session } = realSession([
      {
        toolCalls: [
          { name: 'shell', arguments: { command: 'echo started; echo $$ > sleep.pid; exec sleep 30' } },
        ],
      },
      'unreachable',
    ]);
    const stream = session.submit('run it');
    const pidFile = join(dir, 'sleep.pid');
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    session.abort();
    const events = await collect(stream);
    await waitUntil(() => !alive(pid));
    const delta = events.find((e) => e.kind === 'tool_call_output_delta');
    expect(String(delta?.data['text'])).toContain('started');
    const end = events.find((e) => e.kind === 'tool_call_end')!;
    expect(end.data['is_error']).toBe(true);
    expect(kinds(events).at(-1)).toBe('session_end');
    expect(session.state).toBe('closed');
  });

  it('sends the layered system prompt: environment, tools, AGENTS.md and CLAUDE.md (not GEMINI.md), user instructions last', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'AGENTS.md'), 'Agents: run npm test.');
    writeFileSync(join(dir, 'CLAUDE.md'), 'Claude: prefer small diffs.');
    writeFileSync(join(dir, 'GEMINI.md'), 'Gemini: never read this.');
    const env = new LocalExecutionEnvironment({ workingDir: dir });
    const { adapter, client } = scripted(['ok']);
    const session = createSession({
      client,
      profile: getProfile('anthropic', { model: 'claude-sonnet-4-6' }),
      env,
      config: { userInstructions: 'Write status.json at the end.' },
    });
    await collect(session.submit('hi'));
    const prompt = adapter.calls[0]!.request.systemPrompt!;
    expect(prompt).toContain(`Working directory: ${env.workingDirectory}`);
    expect(prompt).toContain('Model: claude-sonnet-4-6');
    expect(prompt).toContain('- edit_file:');
    expect(prompt).toContain('Agents: run npm test.');
    expect(prompt).toContain('Claude: prefer small diffs.');
    expect(prompt).not.toContain('Gemini: never read this.');
    expect(prompt.trimEnd().endsWith('Write status.json at the end.')).toBe(true);
  });

  it('writes and edits files in the working directory and answers', async () => {
    const { dir, session } = realSession([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'hello.py', content: 'print("Hello")\n' } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            arguments: {
              path: 'hello.py',
              old_string: 'print("Hello")',
              new_string: 'print("Hello")\nprint("Goodbye")',
            },
          },
        ],
      },
      { toolCalls: [{ name: 'shell', arguments: { command: 'cat hello.py' } }] },
      'Done: hello.py prints Hello and Goodbye.',
    ]);
    const events = await collect(session.submit('create hello.py'));
    expect(readFileSync(join(dir, 'hello.py'), 'utf8')).toBe('print("Hello")\nprint("Goodbye")\n');
    const ends = events.filter((e) => e.kind === 'tool_call_end');
    expect(ends.map((e) => e.data['is_error'])).toEqual([false, false, false]);
    expect(ends[2]!.data['output']).toBe('print("Hello")\nprint("Goodbye")');
    await session.shutdown();
  });

  it('keeps the full output in TOOL_CALL_END and gives the model the truncated one with the marker', async () => {
    const { dir, adapter, session } = realSession([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
      'read it',
    ]);
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(100_000));
    const events = await collect(session.submit('read big.txt'));
    const end = events.find((e) => e.kind === 'tool_call_end')!;
    expect(String(end.data['output'])).toContain('x'.repeat(100_000));
    expect(String(end.data['truncated_output'])).toContain('[WARNING: Tool output was truncated.');
    const toolMessage = adapter.calls[1]!.request.messages.find((m) => m.role === 'tool')!;
    const sent = toolMessage.content[0] as { content: string };
    expect(sent.content).toBe(end.data['truncated_output']);
    expect(sent.content.length).toBeLessThan(51_000);
  });

  it('skips a call whose pre-hook fails and tells the model why; a failing post-hook is a warning', async () => {
    const { dir, session } = realSession(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'blocked.txt', content: 'no' } }] },
        { toolCalls: [{ name: 'shell', arguments: { command: 'echo ok' } }] },
        'done',
      ],
      {
        pre: 'if [ "$ATTRACTOR_TOOL_NAME" = write_file ]; then echo "writes are frozen"; exit 3; fi',
        post: 'exit 1',
      },
    );
    const events = await collect(session.submit('go'));
    expect(existsSync(join(dir, 'blocked.txt'))).toBe(false);
    const ends = events.filter((e) => e.kind === 'tool_call_end');
    expect(ends[0]!.data['is_error']).toBe(true);
    expect(String(ends[0]!.data['output'])).toContain('writes are frozen');
    expect(ends[1]!.data).toMatchObject({ is_error: false, output: 'ok' });
    const warning = events.find((e) => e.kind === 'warning');
    expect(String(warning?.data['message'])).toContain(
      'post-tool hook (exit 1) exited with code 1 after shell',
    );
  });
});
