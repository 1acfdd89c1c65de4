import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalExecutionEnvironment } from '../../../src/actors/agent/environment/local-execution-environment.js';
import { getProfile } from '../../../src/actors/agent/profiles/get-profile.js';
import type { ProviderProfile } from '../../../src/actors/agent/profiles/provider-profile.js';
import { createSession } from '../../../src/actors/agent/session/session.js';
import {
  AnthropicAdapter,
  getModelInfo,
  LLMClient,
  OpenAIAdapter,
  type ProviderAdapter,
  type TokenUsage,
} from '../../../src/llm/index.js';
import { FAKE_ANTHROPIC_KEY } from '../fake-anthropic-server.js';
import { FAKE_OPENAI_KEY } from '../fake-openai-server.js';
import type { ScriptedServer } from '../sse.js';
import {
  type ScriptedAnswer,
  startCachingAnthropicServer,
  startCachingOpenAIServer,
} from './caching-servers.js';
import { AGENTS, FIXED, README, SLUGIFY, TEST } from './caching-session-project.js';

/**
 * One realistic 8-turn agent session (find the code, read it and its test, search, fix, run the tests, read
 * the README, answer) against a prompt-caching stand-in, measured per model call. Shared by the caching test
 * and `bench/agent-caching.mjs`, so the bench reports exactly what the test proves.
 */

export interface TurnFigures {
  turn: number;
  /** Every input token of the call, cached or not. */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** cacheReadTokens / inputTokens. */
  readShare: number;
}

export interface CachingMeasurement {
  provider: 'anthropic' | 'openai';
  model: string;
  caching: boolean;
  turns: TurnFigures[];
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Input tokens as billed, in full-price tokens: writes and reads weighted by their catalog prices. */
  billedInputTokens: number;
  /** The session's cost at catalog prices (input and output). */
  costUsd: number;
  /** The system prompt of every request, so a test can check it never changed. */
  systemPrompts: string[];
}

/** What the scripted model does, turn by turn: an agent working the usual way, then its answer. */
export const SESSION_SCRIPT: readonly ScriptedAnswer[] = [
  { tool: 'glob', args: { pattern: '**/*.mjs' } },
  { tool: 'read_file', args: { path: 'src/slugify.mjs' } },
  { tool: 'read_file', args: { path: 'test/slugify.test.mjs' } },
  { tool: 'grep', args: { pattern: 'slugify\\(', path: '.' } },
  { tool: 'write_file', args: { path: 'src/slugify.mjs', content: FIXED } },
  { tool: 'shell', args: { command: 'node --test test/' } },
  { tool: 'read_file', args: { path: 'README.md' } },
  {
    text: 'Fixed slugify: slugs are lowercased, repeated hyphens collapsed and a hyphen left by the cut removed. All seven tests pass.',
  },
];

function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'attractor-caching-')));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'src', 'slugify.mjs'), SLUGIFY);
  writeFileSync(join(dir, 'test', 'slugify.test.mjs'), TEST);
  writeFileSync(join(dir, 'README.md'), README);
  writeFileSync(join(dir, 'AGENTS.md'), AGENTS);
  writeFileSync(join(dir, 'package.json'), '{ "name": "slugs", "type": "module", "private": true }\n');
  return dir;
}

/** Input tokens in full-price tokens: cache writes and reads at their catalog price relative to input. */
function billedInput(model: string, input: number, read: number, write: number): number {
  const info = getModelInfo(model);
  const price = info?.inputCostPerMillion ?? 1;
  const readRatio = (info?.cacheReadCostPerMillion ?? price) / price;
  const writeRatio = (info?.cacheWriteCostPerMillion ?? price) / price;
  return Math.round(input - read - write + read * readRatio + write * writeRatio);
}

/** Runs the scripted session once against a fresh stand-in and measures every model call. */
export async function measureAgentCaching(options: {
  provider: 'anthropic' | 'openai';
  model: string;
  caching: boolean;
}): Promise<CachingMeasurement> {
  const { provider, model, caching } = options;
  const dir = workspace();
  const systemPrompts: string[] = [];
  const script = (index: number): ScriptedAnswer =>
    SESSION_SCRIPT[Math.min(index, SESSION_SCRIPT.length - 1)]!;
  let server: ScriptedServer;
  let adapter: ProviderAdapter;
  if (provider === 'anthropic') {
    server = await startCachingAnthropicServer(script);
    adapter = new AnthropicAdapter({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: server.origin });
  } else {
    const openai = await startCachingOpenAIServer(script, { caching });
    server = openai;
    adapter = new OpenAIAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: openai.baseURL });
  }
  const base = getProfile(provider, { model });
  // Anthropic caches only where the request asks: without caching, no breakpoints are sent.
  const profile: ProviderProfile =
    provider === 'anthropic' && !caching
      ? { ...base, providerOptions: () => ({ anthropic: { autoCache: false } }) }
      : base;
  const turns: TurnFigures[] = [];
  let costUsd = 0;
  const session = createSession({
    client: new LLMClient({ adapters: [adapter], retryPolicy: { maxRetries: 0 } }),
    profile,
    env: new LocalExecutionEnvironment({ workingDir: dir }),
    model,
    onEvent: (event) => {
      if (event.kind !== 'usage') return;
      const usage = event.data['usage'] as TokenUsage;
      const read = usage.cacheReadTokens ?? 0;
      turns.push({
        turn: turns.length + 1,
        inputTokens: usage.inputTokens,
        cacheReadTokens: read,
        cacheWriteTokens: usage.cacheWriteTokens ?? 0,
        readShare: usage.inputTokens === 0 ? 0 : read / usage.inputTokens,
      });
      costUsd += (event.data['cost_usd'] as number | undefined) ?? 0;
    },
  });
  try {
    for await (const _event of session.submit(
      'Slugs come out with capitals and double hyphens; fix slugify.',
    )) {
      // Measured through onEvent.
    }
    for (const request of server.requests) {
      const body = request.body as Record<string, unknown>;
      systemPrompts.push(JSON.stringify(body['system'] ?? body['instructions']));
    }
  } finally {
    await session.shutdown();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const sum = (pick: (t: TurnFigures) => number) => turns.reduce((total, t) => total + pick(t), 0);
  const inputTokens = sum((t) => t.inputTokens);
  const cacheReadTokens = sum((t) => t.cacheReadTokens);
  const cacheWriteTokens = sum((t) => t.cacheWriteTokens);
  return {
    provider,
    model,
    caching,
    turns,
    inputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    billedInputTokens: billedInput(model, inputTokens, cacheReadTokens, cacheWriteTokens),
    costUsd,
    systemPrompts,
  };
}
