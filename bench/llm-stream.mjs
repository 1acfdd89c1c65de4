// LLM client streaming overhead: 10,000 small text deltas streamed by a local server speaking Anthropic's
// SSE wire format, consumed (a) straight from the official SDK's raw event stream and (b) through
// LLMClient.stream() with the Anthropic adapter (event mapping, middleware chain, retry wrapper).
// Reported as the ratio of (b) to (a), median of several runs. Target: ratio <= 1.3.
import { createServer } from 'node:http';
import { Anthropic } from '@anthropic-ai/sdk';
import { AnthropicAdapter, LLMClient, Message } from '../dist/llm/index.js';

const DELTAS = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 5;
const MODEL = 'claude-sonnet-4-6';
const KEY = 'bench-key';

function frame(data) {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function streamBody() {
  const parts = [
    frame({
      type: 'message_start',
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model: MODEL,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 10,
          output_tokens: 1,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        },
      },
    }),
    frame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (let i = 0; i < DELTAS; i++) {
    parts.push(
      frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `w${i % 10} ` } }),
    );
  }
  parts.push(
    frame({ type: 'content_block_stop', index: 0 }),
    frame({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: DELTAS },
    }),
    frame({ type: 'message_stop' }),
  );
  return parts.join('');
}

const body = streamBody();
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(body);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseURL = `http://127.0.0.1:${server.address().port}`;

const sdk = new Anthropic({ apiKey: KEY, baseURL, maxRetries: 0 });
const client = new LLMClient({ adapters: [new AnthropicAdapter({ apiKey: KEY, baseURL })] });
const messages = [{ role: 'user', content: 'go' }];

async function raw() {
  let n = 0;
  const stream = await sdk.messages.create({ model: MODEL, max_tokens: 4096, messages, stream: true });
  for await (const event of stream) if (event.type === 'content_block_delta') n++;
  if (n !== DELTAS) throw new Error(`raw: ${n} deltas`);
}

async function unified() {
  let n = 0;
  for await (const event of client.stream({ model: MODEL, messages: [Message.user('go')] })) {
    if (event.type === 'text_delta') n++;
  }
  if (n !== DELTAS) throw new Error(`client: ${n} deltas`);
}

async function time(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Warm both paths (JIT, SDK lazy import, connection pool) so neither is measured unoptimised.
for (let i = 0; i < WARMUP; i++) {
  await raw();
  await unified();
}
const rawTimes = [];
const clientTimes = [];
for (let i = 0; i < RUNS; i++) {
  // Alternate so drift on a shared machine hits both sides alike.
  rawTimes.push(await time(raw));
  clientTimes.push(await time(unified));
}
server.close();

const rawMs = median(rawTimes);
const clientMs = median(clientTimes);
const ratio = clientMs / rawMs;
const row = (name, ms) =>
  `| ${name.padEnd(28)} | ${ms.toFixed(1).padStart(9)} | ${((ms * 1000) / DELTAS).toFixed(2).padStart(10)} |`;
console.log(`llm-stream: ${DELTAS} text deltas, median of ${RUNS} runs`);
console.log(`| ${'path'.padEnd(28)} | ${'total ms'.padStart(9)} | ${'µs / event'.padStart(10)} |`);
console.log(`| ${'-'.repeat(28)} | ${'-'.repeat(9)} | ${'-'.repeat(10)} |`);
console.log(row('raw SDK stream', rawMs));
console.log(row('LLMClient.stream (anthropic)', clientMs));
console.log(`llm-stream ratio ${ratio.toFixed(2)}x (target <= 1.3x) ${ratio <= 1.3 ? 'OK' : 'MISSED'}`);
