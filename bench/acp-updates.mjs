// ACP round-trip overhead per session update: the fake ACP agent (test/fixtures/acp, the SDK's agent
// side) streams 10,000 agent_message_chunk updates to Attractor's client (runAgentSession: the SDK's
// client side, NDJSON over a pipe, mapping to agent.* events). Against a floor: a child process writing
// the same 10,000 session/update JSON-RPC lines to a pipe, read with readline + JSON.parse and mapped by
// the same SessionUpdateEvents, no SDK on either side. Both timed from the first update to the last, so
// process start-up and `initialize` are not counted. A third measurement keeps the SDK client but
// replaces the fake agent by a raw NDJSON writer, isolating the side Attractor runs. Reported as
// updates/s and ratios of time per update to the floor, median of several runs. Target (ours, the issue
// sets none): the client side ≤ 3× the floor.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runAgentSession } from '../dist/actors/acp/run-agent-session.js';
import { SessionUpdateEvents } from '../dist/actors/acp/session-update-events.js';

const CHUNKS = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET = 3;
const root = fileURLToPath(new URL('..', import.meta.url));
const fakeAgent = path.join(root, 'test', 'fixtures', 'acp', 'fake-agent.mjs');
const cwd = mkdtempSync(path.join(tmpdir(), 'attractor-bench-acp-'));

// An agent without the SDK: answers initialize and session/new, then writes the updates and the prompt
// response as raw NDJSON. Isolates the client side (what Attractor owns) from the SDK's agent side.
const RAW_AGENT = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (text) => {
  const m = JSON.parse(text);
  if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 1 } });
  else if (m.method === 'session/new') send({ jsonrpc: '2.0', id: m.id, result: { sessionId: 's' } });
  else if (m.method === 'session/prompt') {
    let i = 0;
    const write = () => {
      while (i < ${CHUNKS}) {
        i++;
        const ok = process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } }) + '\\n');
        if (!ok) return process.stdout.once('drain', write);
      }
      send({ jsonrpc: '2.0', id: m.id, result: { stopReason: 'end_turn' } });
    };
    write();
  }
});
`;

async function throughSdk(command = `${process.execPath} ${fakeAgent}`) {
  let first = 0;
  let last = 0;
  let count = 0;
  const result = await runAgentSession({
    agentName: 'fake',
    command,
    nodeId: 'bench',
    cwd,
    stageDir: cwd,
    prompt: () => 'stream',
    agentEnv: { ...process.env, FAKE_ACP_MODE: 'stream', FAKE_ACP_CHUNKS: String(CHUNKS) },
    terminalEnv: {},
    mcpServers: [],
    policy: 'allow',
    initTimeoutMs: 30_000,
    cancelGraceMs: 1000,
    signal: new AbortController().signal,
    emit(kind) {
      if (kind !== 'agent.assistant_text_delta') return;
      const now = performance.now();
      if (count === 0) first = now;
      last = now;
      count++;
    },
  });
  if (count !== CHUNKS || result.failure) throw new Error(`sdk: ${count} updates, ${result.failure ?? ''}`);
  return (last - first) / (CHUNKS - 1);
}

const WRITER = `
const line = (i) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } }) + '\\n';
let i = 0;
function write() {
  while (i < ${CHUNKS}) { if (!process.stdout.write(line(i++))) return process.stdout.once('drain', write); }
}
write();
`;

async function floor() {
  const child = spawn(process.execPath, ['-e', WRITER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const mapper = new SessionUpdateEvents();
  let first = 0;
  let last = 0;
  let count = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    const message = JSON.parse(line);
    for (const event of mapper.map(message.params.update)) {
      if (event.kind !== 'agent.assistant_text_delta') continue;
      const now = performance.now();
      if (count === 0) first = now;
      last = now;
      count++;
    }
  }
  if (count !== CHUNKS) throw new Error(`floor: ${count} updates`);
  return (last - first) / (CHUNKS - 1);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  await throughSdk();
  await floor();
  const rawAgentFile = path.join(cwd, 'raw-agent.cjs');
  writeFileSync(rawAgentFile, RAW_AGENT);
  const rawAgentCommand = `${process.execPath} ${rawAgentFile}`;
  const sdk = [];
  const client = [];
  const raw = [];
  for (let i = 0; i < RUNS; i++) {
    sdk.push(await throughSdk());
    client.push(await throughSdk(rawAgentCommand));
    raw.push(await floor());
  }
  const perSdk = median(sdk);
  const perClient = median(client);
  const perRaw = median(raw);
  const rate = (per) => `${(1000 / per).toFixed(0)} updates/s (${(per * 1000).toFixed(1)} µs each)`;
  // The target is on the client side, the part Attractor runs; the agent side is the agent's business.
  const ratio = perClient / perRaw;
  console.log(
    `acp-updates: ${CHUNKS} updates — SDK both sides ${rate(perSdk)}; SDK client only ${rate(perClient)}; ` +
      `raw NDJSON ${rate(perRaw)}; ratio both sides ${(perSdk / perRaw).toFixed(2)}×, client only ${ratio.toFixed(2)}× ` +
      `(target client ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'MISSED'}`,
  );
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
