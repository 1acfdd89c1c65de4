import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { z } from 'zod';
import { createAgentBackend } from '../../src/actors/codergen/agent-backend.js';
import { AutoApproveInterviewer } from '../../src/actors/interviewers/auto-approve.js';
import { LocalExecutionEnvironment } from '../../src/agent/environment/local-execution-environment.js';
import { getProfile } from '../../src/agent/profiles/get-profile.js';
import type { AgentEvent } from '../../src/agent/session/agent-event.js';
import { createSession } from '../../src/agent/session/session.js';
import { defineLLMTool, Message, NotFoundError } from '../../src/llm/index.js';
import { runPipeline } from '../../src/run/engine.js';
import type { LiveTarget } from './live-targets.js';

/**
 * The smoke tests run against real providers (`npm run test:live`,
 * docs/decisions/0022-scheduling-tests-run-on-fake-timers.md): the LLM client's (a plain answer, a stream, a tool round, a
 * structured object, an unknown model), the coding agent's (create, edit and run a file; read a file too
 * large for the model and see it truncated) and a whole pipeline's (plan, implement as a goal gate, review).
 * Each checks what any competent model does, not its exact words. The ordinary test
 * test/live/smoke-harness.test.ts runs them against the local stand-ins, so the harness itself is tested.
 */

export async function smokeClient(target: LiveTarget): Promise<void> {
  const client = target.client();
  const { model } = target;
  const answer = await client.complete({
    model,
    messages: [Message.user('Reply with the single word: pong')],
    maxTokens: 64,
  });
  expect(answer.finishReason.reason).toBe('stop');
  expect(answer.text.toLowerCase()).toContain('pong');

  const stream = client.stream({
    model,
    messages: [Message.user('Count from 1 to 5, digits separated by spaces.')],
  });
  let streamed = '';
  for await (const delta of stream.textStream) streamed += delta;
  expect(streamed).toBe((await stream.response()).text);
  expect(streamed).toMatch(/1\D+2\D+3\D+4\D+5/);

  const cities: string[] = [];
  const weather = defineLLMTool({
    name: 'get_weather',
    description: 'The current weather in a city.',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      cities.push(String(city));
      return `${String(city)}: 21 °C, sunny`;
    },
  });
  const toolRound = await client.generate({
    model,
    prompt: 'What is the weather in Paris and in Tokyo? Use the tool for each city.',
    tools: [weather],
    maxToolRounds: 3,
  });
  expect(toolRound.steps.length).toBeGreaterThanOrEqual(2);
  expect(cities.map((c) => c.toLowerCase()).sort()).toEqual(expect.arrayContaining(['paris', 'tokyo']));

  const person = await client.generateObject({
    model,
    prompt: 'Alice is 30 years old. Give her name and age.',
    schema: z.object({ name: z.string(), age: z.number() }),
  });
  expect(person.output).toEqual({ name: 'Alice', age: 30 });

  const unknown = await client
    .complete({ model: 'nonexistent-model-xyz', provider: target.provider, messages: [Message.user('hi')] })
    .catch((error: unknown) => error);
  expect(unknown).toBeInstanceOf(NotFoundError);
}

export async function smokeAgent(target: LiveTarget, workingDir: string): Promise<void> {
  writeFileSync(path.join(workingDir, 'big.txt'), 'x'.repeat(100_000));
  const events: AgentEvent[] = [];
  const session = createSession({
    client: target.client(),
    profile: getProfile(target.provider, { model: target.model }),
    env: new LocalExecutionEnvironment({ workingDir }),
    model: target.model,
    config: { maxTurns: 30 },
    onEvent: (event) => events.push(event),
  });
  const run = async (task: string) => {
    for await (const _event of session.submit(task)) {
      // Collected through onEvent.
    }
  };
  try {
    await run('Create hello.mjs that prints "Hello" with console.log. Use your file tools, then stop.');
    expect(readFileSync(path.join(workingDir, 'hello.mjs'), 'utf8')).toContain('Hello');
    await run(
      'Edit hello.mjs so that it also prints "Goodbye" on a second line, then run it with node to check.',
    );
    const printed = execFileSync(process.execPath, ['hello.mjs'], { cwd: workingDir, encoding: 'utf8' });
    expect(printed).toMatch(/Hello[\s\S]*Goodbye/);
    await run('Read big.txt with your read tool and tell me roughly how long it is.');
  } finally {
    await session.shutdown();
  }
  const readBig = events
    .filter((e) => e.kind === 'tool_call_end')
    .find((e) => e.data.output.length >= 100_000);
  expect(readBig, 'a tool call read the whole of big.txt').toBeDefined();
  // The event has the whole output; the model was given a truncated one, with the marker.
  expect(String(readBig?.data.truncated_output)).toContain('[WARNING: Tool output was truncated.');
  expect(events.some((e) => e.kind === 'error')).toBe(false);
}

export const SMOKE_PIPELINE = `digraph smoke {
  graph [goal="Create hello.mjs, a Node script that prints Hello, World!"]
  start     [shape=Mdiamond]
  plan      [prompt="Plan how to do this, in three short steps. Do not change any file yet: $goal"]
  implement [prompt="Do it now: $goal", goal_gate=true, retry_target=implement, max_retries=1]
  review    [prompt="Check that hello.mjs exists and prints Hello, World! when run with node. Answer in one line."]
  done      [shape=Msquare]
  start -> plan -> implement -> review -> done
}`;

export async function smokePipeline(target: LiveTarget, workingDir: string): Promise<void> {
  const backend = createAgentBackend({ client: target.client(), defaults: { model: target.model } });
  const runDir = path.join(workingDir, '.run');
  const result = await runPipeline({
    source: SMOKE_PIPELINE,
    backend,
    accounting: backend.ledger,
    interviewer: new AutoApproveInterviewer(),
    workingDir,
    runDir,
  });
  expect(result.status, result.failure?.reason).toBe('completed');
  expect(result.completedNodes).toEqual(expect.arrayContaining(['plan', 'implement', 'review']));
  for (const node of ['plan', 'implement', 'review']) {
    for (const file of ['prompt.md', 'response.md', 'status.json']) {
      expect(existsSync(path.join(runDir, node, file)), `${node}/${file}`).toBe(true);
    }
  }
  const printed = execFileSync(process.execPath, ['hello.mjs'], { cwd: workingDir, encoding: 'utf8' });
  expect(printed).toContain('Hello, World!');
  expect(result.usage).toMatchObject({ calls: expect.any(Number) });
}
