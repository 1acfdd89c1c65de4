import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createSession } from '../../../src/agent/session/session.js';
import { collect, defineTestTool, kinds, scripted, testEnv, testProfile } from './session-fixtures.js';

// A test that fails on fake timers must not leave them to the next.
afterEach(() => {
  vi.useRealTimers();
});

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

describe('Session abort', () => {
  it('aborts the in-flight model call and closes', async () => {
    // On fake timers: the abort at 30 ms ends the 10 s model call at 30 ms exactly.
    vi.useFakeTimers();
    const { client } = scripted([{ text: 'never', delayMs: 10_000 }]);
    const session = createSession({ client, profile: testProfile(), env: testEnv() });
    const stream = session.submit('go');
    setTimeout(() => session.abort(), 30);
    const started = Date.now();
    const pending = collect(stream);
    await vi.advanceTimersByTimeAsync(30);
    const events = await pending;
    const elapsed = Date.now() - started;
    vi.useRealTimers();
    expect(elapsed).toBe(30);
    expect(kinds(events)).toEqual(['session_start', 'user_input', 'session_end']);
    expect(events.at(-1)!.data).toEqual({ state: 'closed' });
    expect(session.state).toBe('closed');
  });

  it('kills a running tool process through the tool context signal, leaving none behind', async () => {
    let pid = 0;
    const sleeper = defineTestTool('sleeper', z.object({}), (_, ctx) => {
      const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
      pid = child.pid!;
      return new Promise((resolve) => {
        const kill = () => process.kill(-pid, 'SIGKILL');
        if (ctx.signal.aborted) kill();
        ctx.signal.addEventListener('abort', kill, { once: true });
        child.on('exit', (_code, signal) => resolve(`sleep ended by ${signal}`));
      });
    });
    const { adapter, client } = scripted([{ toolCalls: [{ name: 'sleeper' }] }, 'unreachable']);
    const session = createSession({ client, profile: testProfile({ toolList: [sleeper] }), env: testEnv() });
    const stream = session.submit('go');
    await waitUntil(() => pid !== 0 && alive(pid));
    session.abort();
    const events = await collect(stream);
    expect(alive(pid)).toBe(false);
    expect(events.find((e) => e.kind === 'tool_call_end')!.data['output']).toBe('sleep ended by SIGKILL');
    expect(kinds(events).at(-1)).toBe('session_end');
    expect(adapter.calls).toHaveLength(1);
    expect(session.state).toBe('closed');
  });

  it('aborts when the caller’s signal aborts, and shutdown() of an idle session closes it', async () => {
    const controller = new AbortController();
    const { client } = scripted([{ text: 'slow', delayMs: 10_000 }]);
    const session = createSession({
      client,
      profile: testProfile(),
      env: testEnv(),
      signal: controller.signal,
    });
    const stream = session.submit('go');
    controller.abort();
    await collect(stream);
    expect(session.state).toBe('closed');

    const ended: string[] = [];
    const env = testEnv();
    const idle = createSession({
      client: scripted(['x']).client,
      profile: testProfile(),
      env,
      onEvent: (e) => ended.push(e.kind),
    });
    await idle.shutdown();
    expect(idle.state).toBe('closed');
    expect(ended).toEqual(['session_end']);
    expect(env.cleanups).toBe(1);
  });
});
