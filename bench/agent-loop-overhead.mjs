// Agent-loop overhead per tool round: a Session driving ROUNDS tool rounds (scripted model, one no-op tool
// call per round, then a text answer) against a bare loop doing the same rounds by calling
// LLMClient.complete directly and running the tool inline. Both use the same scripted adapter, so the
// difference is the session's own work: streaming events, history turns, the lifecycle actor, loop
// detection, context tracking, the AgentEvent queue. Time is taken from USER_INPUT to PROCESSING_END, so the
// one-off system prompt (git facts, instruction files) is not counted. Target (issue 12): ratio <= 1.2.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { composeSystemPrompt } from '../dist/actors/agent/profiles/system-prompt.js';
import { createSession } from '../dist/actors/agent/session/session.js';
import { LLMClient, Message } from '../dist/llm/index.js';
import { ScriptedAdapter } from '../dist/llm/testing/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 31);
const WARMUP = 3;
const MODEL = 'claude-sonnet-4-6';
const TARGET = 1.2;

const noopParameters = z.object({ i: z.number() });
const noop = {
  name: 'noop',
  description: 'Does nothing.',
  parameters: noopParameters,
  jsonSchema: z.toJSONSchema(noopParameters),
  execute: async () => ({ output: 'ok', isError: false }),
};

/** Round i < ROUNDS asks for the tool (fresh arguments, so loop detection stays quiet); then a text answer. */
function script() {
  return (_request, index) =>
    index < ROUNDS ? { toolCalls: [{ name: 'noop', arguments: { i: index }, id: `c${index}` }] } : 'done';
}

const client = () =>
  new LLMClient({ adapters: [new ScriptedAdapter({ turns: script(), name: 'anthropic' })] });

const profile = {
  id: 'anthropic',
  providerName: 'anthropic',
  model: MODEL,
  contextWindow: 200_000,
  defaultCommandTimeoutMs: 120_000,
  supportsReasoning: true,
  supportsStreaming: true,
  supportsParallelToolCalls: true,
  instructionFiles: [],
  systemPromptTemplate: 'Benchmark agent.',
  tools: () => [noop],
  buildSystemPrompt(context) {
    return composeSystemPrompt(this.systemPromptTemplate, context);
  },
  providerOptions: () => undefined,
};

const dir = mkdtempSync(path.join(tmpdir(), 'attractor-bench-agent-'));
const env = {
  workingDirectory: dir,
  platform: process.platform,
  cleanup: async () => {},
  execCommand: async () => ({ stdout: '', stderr: '', exitCode: 0, timedOut: false }),
};

async function bare() {
  const llm = client();
  const tools = [{ name: noop.name, description: noop.description, parameters: noop.jsonSchema }];
  const messages = [Message.user('go')];
  const started = performance.now();
  for (;;) {
    const response = await llm.complete({
      model: MODEL,
      provider: 'anthropic',
      systemPrompt: 'Benchmark agent.',
      messages,
      tools,
    });
    messages.push(response.message);
    if (response.toolCalls.length === 0) break;
    for (const call of response.toolCalls) {
      const args = noop.parameters.parse(call.arguments);
      const result = await noop.execute(args);
      messages.push(Message.toolResult(call.toolCallId, result.output, result.isError, call.toolName));
    }
  }
  return performance.now() - started;
}

async function session() {
  const s = createSession({ client: client(), profile, env, model: MODEL });
  let started = 0;
  let ended = 0;
  let rounds = 0;
  for await (const event of s.submit('go')) {
    if (event.kind === 'user_input') started = performance.now();
    else if (event.kind === 'tool_call_end') rounds++;
    else if (event.kind === 'processing_end') ended = performance.now();
  }
  await s.shutdown();
  if (rounds !== ROUNDS) throw new Error(`session ran ${rounds} rounds`);
  return ended - started;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (let i = 0; i < WARMUP; i++) {
  await bare();
  await session();
}
// Bare and session runs alternate, and the ratio is taken per pair, so load drifting on a shared machine
// affects both sides of each ratio alike.
const bareTimes = [];
const sessionTimes = [];
const ratios = [];
for (let i = 0; i < RUNS; i++) {
  const b = await bare();
  const s = await session();
  bareTimes.push(b);
  sessionTimes.push(s);
  ratios.push(s / b);
}
rmSync(dir, { recursive: true, force: true });

const us = (ms) => `${((ms / ROUNDS) * 1000).toFixed(1)} µs`;
const ratio = median(ratios);
console.log(
  `bare loop (LLMClient.complete): ${us(median(bareTimes))} per tool round (best ${us(Math.min(...bareTimes))})`,
);
console.log(
  `agent session:                  ${us(median(sessionTimes))} per tool round (best ${us(Math.min(...sessionTimes))})`,
);
console.log(
  `ratio ${ratio.toFixed(2)}× (median of ${RUNS} paired runs; target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`,
);
