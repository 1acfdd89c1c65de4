import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { LocalExecutionEnvironment } from '../../src/agent/environment/local-execution-environment.js';
import { getProfile } from '../../src/agent/profiles/get-profile.js';
import type { AgentEvent } from '../../src/agent/session/agent-event.js';
import { createSession } from '../../src/agent/session/session.js';
import type { SessionConfigInput } from '../../src/agent/session/session-config.js';
import type { LiveTarget } from './live-targets.js';

/**
 * The live smoke tests of what the agent does besides calling its file tools (`npm run test:live`): steering
 * a session while it works, delegating to a subagent, a shell command stopped at its timeout, and an image
 * in a request. As in smoke-scenarios.ts, each checks what any competent model does, not its words;
 * test/live/smoke-harness.test.ts runs them against the local Anthropic stand-in.
 */

/** The ceiling the command-timeout scenario sets, whatever timeout the model asks for. */
export const SMOKE_COMMAND_CEILING_MS = 1500;
export const STEERING = 'Also create b.txt containing the single word two, with write_file.';

interface AgentRun {
  events: AgentEvent[];
  /** Submits the task and collects its events; `onEvent` sees each as it is emitted, and may steer. */
  submit(task: string, onEvent?: (event: AgentEvent) => void): Promise<void>;
  steer(message: string): void;
  shutdown(): Promise<void>;
}

function agentSession(target: LiveTarget, workingDir: string, config: SessionConfigInput = {}): AgentRun {
  const events: AgentEvent[] = [];
  // Called as each event is emitted, not when the iterator gets to it: a steer made here is taken after
  // the tool round that emitted the event, as a person watching the stream would expect.
  let watcher: ((event: AgentEvent) => void) | undefined;
  const session = createSession({
    client: target.client(),
    profile: getProfile(target.provider, { model: target.model }),
    env: new LocalExecutionEnvironment({ workingDir }),
    model: target.model,
    config: { maxTurns: 20, ...config },
    onEvent: (event) => {
      events.push(event);
      watcher?.(event);
    },
  });
  return {
    events,
    async submit(task, onEvent) {
      watcher = onEvent;
      try {
        for await (const _event of session.submit(task)) {
          // Collected through onEvent.
        }
      } finally {
        watcher = undefined;
      }
    },
    steer: (message) => session.steer(message),
    shutdown: () => session.shutdown(),
  };
}

const toolEnds = (events: AgentEvent[], name: string) =>
  events.flatMap((e) => (e.kind === 'tool_call_end' && e.data.tool_name === name ? [e.data] : []));

export async function smokeSteering(target: LiveTarget, workingDir: string): Promise<void> {
  const agent = agentSession(target, workingDir);
  let steered = false;
  try {
    await agent.submit('Create a.txt containing the single word one, with write_file.', (event) => {
      if (event.kind !== 'tool_call_end' || steered) return;
      steered = true;
      agent.steer(STEERING);
    });
  } finally {
    await agent.shutdown();
  }
  expect(agent.events.filter((e) => e.kind === 'steering_injected').map((e) => e.data.text)).toEqual([
    STEERING,
  ]);
  expect(readFileSync(path.join(workingDir, 'a.txt'), 'utf8')).toMatch(/one/i);
  expect(readFileSync(path.join(workingDir, 'b.txt'), 'utf8')).toMatch(/two/i);
}

export async function smokeSubagent(target: LiveTarget, workingDir: string): Promise<void> {
  const agent = agentSession(target, workingDir);
  try {
    await agent.submit(
      'Delegate this to a subagent with spawn_agent: "Create sub.txt containing the single word delegated, ' +
        'with write_file." Then call wait with its agent_id and tell me what it answered. Do not create the ' +
        'file yourself.',
    );
  } finally {
    await agent.shutdown();
  }
  expect(toolEnds(agent.events, 'spawn_agent').some((end) => !end.is_error)).toBe(true);
  expect(toolEnds(agent.events, 'wait').some((end) => !end.is_error)).toBe(true);
  // The subagent called the model itself: its calls reach the parent's stream as usage with its id.
  expect(agent.events.some((e) => e.kind === 'usage' && e.data.subagent_id !== undefined)).toBe(true);
  expect(toolEnds(agent.events, 'write_file'), 'the parent wrote nothing itself').toEqual([]);
  expect(readFileSync(path.join(workingDir, 'sub.txt'), 'utf8')).toMatch(/delegated/i);
}

export async function smokeCommandTimeout(target: LiveTarget, workingDir: string): Promise<void> {
  const agent = agentSession(target, workingDir, { maxCommandTimeoutMs: SMOKE_COMMAND_CEILING_MS });
  try {
    await agent.submit(
      'Run exactly this shell command once: sleep 30 && echo finished > late.txt\nThen tell me what happened.',
    );
  } finally {
    await agent.shutdown();
  }
  const timedOut = toolEnds(agent.events, 'shell').find((end) =>
    end.output.includes(`Command timed out after ${SMOKE_COMMAND_CEILING_MS}ms`),
  );
  expect(timedOut, 'a shell call stopped at the ceiling').toBeDefined();
  expect(timedOut?.is_error).toBe(true);
  // Killed, not waited for: the command's second half never ran.
  expect(existsSync(path.join(workingDir, 'late.txt'))).toBe(false);
}

/** A `size`×`size` PNG of one colour, 8-bit RGB: what an image input needs, without a file. */
export function solidPng(size: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat()),
  ]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function smokeImageInput(target: LiveTarget): Promise<void> {
  const answer = await target.client().complete({
    model: target.model,
    messages: [
      {
        role: 'user',
        content: [
          { kind: 'text', text: 'What colour fills this image? Answer with one word.' },
          { kind: 'image', data: solidPng(64, [220, 20, 20]).toString('base64'), mediaType: 'image/png' },
        ],
      },
    ],
    maxTokens: 64,
  });
  expect(answer.text.toLowerCase()).toContain('red');
}
