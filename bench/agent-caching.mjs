// Input tokens an 8-turn agent session is billed, with prompt caching and without, against local stand-ins
// of the Anthropic and OpenAI APIs that implement their cache accounting (Anthropic: cache writes at the
// request's breakpoints and reads of a repeated prefix, with each model's minimum cacheable length; OpenAI:
// automatic prefix caching from 1,024 tokens in 128-token steps). The session is the one
// test/actors/agent/session/session-prompt-caching.test.ts checks: this file bundles its measurement
// (test/helpers/prompt-cache/measure-agent-caching.ts) with esbuild and runs it, so the figures here are the
// test's. Tokens are counted by a deterministic stand-in tokenizer, not the providers' own (see
// test/helpers/prompt-cache/stand-in-tokenizer.ts): read the shares and ratios, not the absolute counts.
// Target: from turn 5 on, every call reads more than 50% of its input from the cache.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'node_modules', '.cache', 'attractor-bench');
const outfile = path.join(outDir, 'measure-agent-caching.mjs');
mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: [path.join(root, 'test', 'helpers', 'prompt-cache', 'measure-agent-caching.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const { measureAgentCaching } = await import(pathToFileURL(outfile).href);

const MODELS = [
  ['anthropic', 'claude-opus-4-6'],
  ['anthropic', 'claude-sonnet-4-6'],
  ['anthropic', 'claude-haiku-4-5'],
  ['openai', 'gpt-5.2'],
];
const pct = (x) => `${(x * 100).toFixed(0)}%`;
const usd = (x) => `$${x.toFixed(4)}`;

for (const [provider, model] of MODELS) {
  const cached = await measureAgentCaching({ provider, model, caching: true });
  const uncached = await measureAgentCaching({ provider, model, caching: false });
  const shares = cached.turns.map((t) => pct(t.readShare)).join(' ');
  const fromTurn5 = cached.turns.slice(4).every((t) => t.readShare > 0.5);
  console.log(`${provider} ${model}`);
  console.log(`  cache-read share per turn: ${shares}`);
  console.log(
    `  input tokens ${cached.inputTokens}: read ${cached.cacheReadTokens}, written ${cached.cacheWriteTokens}`,
  );
  console.log(
    `  billed input (full-price tokens): ${cached.billedInputTokens} with caching, ${uncached.billedInputTokens} without (${pct(cached.billedInputTokens / uncached.billedInputTokens)}); session cost ${usd(cached.costUsd)} against ${usd(uncached.costUsd)}`,
  );
  console.log(`  from turn 5, every call reads > 50% from the cache: ${fromTurn5 ? 'OK' : 'MISSED'}`);
}
