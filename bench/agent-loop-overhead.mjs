// Agent-loop overhead per tool round: a Session driving ROUNDS tool rounds (scripted model, one no-op tool
// call per round, then a text answer) against a bare loop doing the same rounds by calling
// LLMClient.complete directly and running the tool inline. Both use the same scripted adapter, so the
// difference is the session's own work: streaming events, history turns, the lifecycle actor, loop
// detection, context tracking, the AgentEvent queue. CPU time is taken from USER_INPUT to PROCESSING_END, so the
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

/**
 * The bare loop the target compares against. With `streaming`, the same loop makes the call the session has
 * to make (LLMClient.stream with an abort signal, for live deltas and abort): the floor any streaming loop pays.
 */
async function bare(streaming = false) {
  const llm = client();
  const controller = new AbortController();
  const tools = [{ name: noop.name, description: noop.description, parameters: noop.jsonSchema }];
  const messages = [Message.user('go')];
  const started = cpuNow();
  for (;;) {
    const request = {
      model: MODEL,
      provider: 'anthropic',
      systemPrompt: 'Benchmark agent.',
      messages,
      tools,
    };
    let response;
    if (!streaming) response = await llm.complete(request);
    else {
      for await (const event of llm.stream(request, { signal: controller.signal })) {
        if (event.type === 'finish') response = event.response;
      }
    }
    messages.push(response.message);
    if (response.toolCalls.length === 0) break;
    for (const call of response.toolCalls) {
      const args = noop.parameters.parse(call.arguments);
      const result = await noop.execute(args);
      messages.push(Message.toolResult(call.toolCallId, result.output, result.isError, call.toolName));
    }
  }
  return cpuNow() - started;
}

async function session() {
  const s = createSession({ client: client(), profile, env, model: MODEL });
  let started = 0;
  let ended = 0;
  let rounds = 0;
  for await (const event of s.submit('go')) {
    if (event.kind === 'user_input') started = cpuNow();
    else if (event.kind === 'tool_call_end') rounds++;
    else if (event.kind === 'processing_end') ended = cpuNow();
  }
  await s.shutdown();
  if (rounds !== ROUNDS) throw new Error(`session ran ${rounds} rounds`);
  return ended - started;
}

/**
 * CPU time of this process in ms (user + system), not wall time: on a shared machine, waiting for a core is
 * not overhead of either loop. Both loops run on one thread with no I/O, so CPU time is their whole cost.
 */
function cpuNow() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (let i = 0; i < WARMUP; i++) {
  await bare();
  await bare(true);
  await session();
}
// Bare and session runs alternate, and the ratio is taken per pair, so load drifting on a shared machine
// affects both sides of each ratio alike.
const bareTimes = [];
const streamTimes = [];
const sessionTimes = [];
const ratios = [];
const floorRatios = [];
for (let i = 0; i < RUNS; i++) {
  const b = await bare();
  const f = await bare(true);
  const s = await session();
  bareTimes.push(b);
  streamTimes.push(f);
  sessionTimes.push(s);
  ratios.push(s / b);
  floorRatios.push(f / b);
}
rmSync(dir, { recursive: true, force: true });

const us = (ms) => `${((ms / ROUNDS) * 1000).toFixed(1)} µs`;
const ratio = median(ratios);
console.log(
  `bare loop (LLMClient.complete): ${us(median(bareTimes))} per tool round (best ${us(Math.min(...bareTimes))})`,
);
console.log(
  `bare loop (stream + signal):     ${us(median(streamTimes))} per tool round (best ${us(Math.min(...streamTimes))})`,
);
console.log(`floor: the bare streaming loop is ${median(floorRatios).toFixed(2)}× the bare complete loop`);
console.log(
  `agent session:                  ${us(median(sessionTimes))} per tool round (best ${us(Math.min(...sessionTimes))})`,
);
console.log(
  `ratio ${ratio.toFixed(2)}× (median of ${RUNS} paired runs; target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`,
);
