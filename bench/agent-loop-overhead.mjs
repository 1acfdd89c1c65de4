// Agent-loop overhead per tool round: a Session driving tool rounds (scripted model, one no-op tool call per
// round, then a text answer) against a bare loop doing the same rounds by calling LLMClient.complete directly
// and running the tool inline. Both use the same scripted adapter, so the difference is the session's own
// work: streaming events, history turns, loop detection, context tracking, the AgentEvent queue. CPU time is
// taken from USER_INPUT to PROCESSING_END as the consumer sees them, so the one-off system prompt (git facts,
// instruction files) is not counted.
// The cost *per tool round* is the slope between a run of FEW and a run of MANY rounds (docs/semantics.md
// decision 0041): what either loop pays once per input (the session's lifecycle returning to idle, its first
// request; the bare loop's first call) is not a round's cost, and divided by the rounds it weighed in by how
// many rounds the bench happened to run. Target: slope ratio <= 1.2.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { composeSystemPrompt } from '../dist/agent/profiles/system-prompt.js';
import { createSession } from '../dist/agent/session/session.js';
import { LLMClient, Message } from '../dist/llm/index.js';
import { ScriptedAdapter } from '../dist/llm/testing/index.js';

const FEW = Number(process.env.BENCH_FEW_ROUNDS ?? 20);
const MANY = Number(process.env.BENCH_ROUNDS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 31);
// Sets of runs before measuring, for every loop: with 3, the first ten measured sets were still being
// compiled (their median ratio 1.5–2.9, against 1.1–1.4 after), which biased the median upward (decision 0041).
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
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

/** Round i < rounds asks for the tool (fresh arguments, so loop detection stays quiet); then a text answer. */
function script(rounds) {
  return (_request, index) =>
    index < rounds ? { toolCalls: [{ name: 'noop', arguments: { i: index }, id: `c${index}` }] } : 'done';
}

const client = (rounds) =>
  new LLMClient({ adapters: [new ScriptedAdapter({ turns: script(rounds), name: 'anthropic' })] });

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
async function bare(rounds, streaming = false) {
  const llm = client(rounds);
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

async function session(rounds) {
  const s = createSession({ client: client(rounds), profile, env, model: MODEL });
  let started = 0;
  let ended = 0;
  let ran = 0;
  for await (const event of s.submit('go')) {
    if (event.kind === 'user_input') started = cpuNow();
    else if (event.kind === 'tool_call_end') ran++;
    else if (event.kind === 'processing_end') ended = cpuNow();
  }
  await s.shutdown();
  if (ran !== rounds) throw new Error(`session ran ${ran} of ${rounds} rounds`);
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
  for (const rounds of [FEW, MANY]) {
    await bare(rounds);
    await bare(rounds, true);
    await session(rounds);
  }
}
// The loops alternate, and each ratio is taken within one set of four runs, so load drifting on a shared
// machine affects both sides of each ratio alike.
const slopes = { bare: [], stream: [], session: [] };
const wholes = { bare: [], session: [] };
const ratios = [];
const floorRatios = [];
const wholeRatios = [];
const perRound = (few, many) => (many - few) / (MANY - FEW);
for (let i = 0; i < RUNS; i++) {
  const b1 = await bare(FEW);
  const s1 = await session(FEW);
  const f1 = await bare(FEW, true);
  const b2 = await bare(MANY);
  const s2 = await session(MANY);
  const f2 = await bare(MANY, true);
  const b = perRound(b1, b2);
  const s = perRound(s1, s2);
  const f = perRound(f1, f2);
  slopes.bare.push(b);
  slopes.stream.push(f);
  slopes.session.push(s);
  ratios.push(s / b);
  floorRatios.push(f / b);
  wholes.bare.push(b2 / MANY);
  wholes.session.push(s2 / MANY);
  wholeRatios.push(s2 / b2);
}
rmSync(dir, { recursive: true, force: true });

const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
const ratio = median(ratios);
console.log(`per tool round, the slope between ${FEW} and ${MANY} rounds (median of ${RUNS}):`);
console.log(`  bare loop (LLMClient.complete): ${us(median(slopes.bare))}`);
console.log(
  `  bare loop (stream + signal):    ${us(median(slopes.stream))} (${median(floorRatios).toFixed(2)}× the complete loop)`,
);
console.log(`  agent session:                  ${us(median(slopes.session))}`);
console.log(`ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`);
// Informational: the whole input of MANY rounds divided by its rounds, per-input costs included.
console.log(
  `whole input of ${MANY} rounds, per round: bare ${us(median(wholes.bare))}, session ${us(median(wholes.session))}, ratio ${median(wholeRatios).toFixed(2)}×`,
);
