import { createHash, type Hash } from 'node:crypto';
import { countTokens } from './stand-in-tokenizer.js';

/**
 * Anthropic's prompt-cache accounting, as its documentation describes it, for a local stand-in server:
 *
 * - The prompt is a sequence of blocks in the order tools → system → messages. A block carrying
 *   `cache_control` is a breakpoint: the prefix up to and including it may be cached (at most 4 per request).
 * - A prefix is cached only when it holds at least the model's minimum cacheable length
 *   ({@link ANTHROPIC_MIN_CACHEABLE_TOKENS}); a shorter one is processed as ordinary input.
 * - On a request, the cache is checked at each breakpoint and at the block boundaries up to 20 blocks before
 *   it; the longest prefix found (byte-identical, same model) is read: `cache_read_input_tokens`.
 * - Every breakpoint whose prefix is long enough and not yet cached is written; the tokens from the end of the
 *   read prefix to the last written breakpoint are `cache_creation_input_tokens`.
 * - What follows the last cached or written breakpoint is `input_tokens`.
 * - An entry lives 5 minutes from its last read or write (the default `ephemeral` TTL).
 *
 * Tokens are counted by the stand-in tokenizer (stand-in-tokenizer.ts) over each block's content, plus 3 per
 * block for the framing the real prompt format adds; the real counts differ, the accounting rules do not.
 */

/** Minimum cacheable prompt length per model (Anthropic's prompt-caching documentation, "Cache limitations"). */
export const ANTHROPIC_MIN_CACHEABLE_TOKENS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['claude-opus-4-6', 4096],
  ['claude-opus-4-5', 4096],
  ['claude-haiku-4-5', 4096],
  // First documented as 1,024; measured (and since documented) as 2,048.
  ['claude-sonnet-4-6', 2048],
  ['claude-sonnet-4-5', 1024],
  ['claude-opus-4-1', 1024],
  ['claude-opus-4', 1024],
  ['claude-sonnet-4', 1024],
  ['claude-3-7-sonnet', 1024],
  ['claude-3-5-haiku', 2048],
  ['claude-3-haiku', 2048],
];

export const LOOKBACK_BLOCKS = 20;
export const CACHE_TTL_MS = 5 * 60_000;
const BLOCK_FRAMING_TOKENS = 3;

export function minimumCacheableTokens(model: string): number {
  const found = ANTHROPIC_MIN_CACHEABLE_TOKENS.find(([prefix]) => model.startsWith(prefix));
  if (!found) throw new Error(`anthropic prompt cache stand-in: no minimum known for model ${model}`);
  return found[1];
}

export interface AnthropicCacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

type Json = Record<string, unknown>;

interface Block {
  /** The block as the prefix hash sees it: its content and role, without `cache_control`. */
  key: string;
  tokens: number;
  breakpoint: boolean;
}

function withoutCacheControl(block: Json): Json {
  const { cache_control: _ignored, ...rest } = block;
  return rest;
}

/** What the model reads of a block: its text, a tool call's name and input, a tool result's content. */
function blockText(block: Json): string {
  switch (block['type']) {
    case 'text':
      return String(block['text'] ?? '');
    case 'tool_use':
      return `${String(block['name'])} ${JSON.stringify(block['input'] ?? {})}`;
    case 'tool_result': {
      const content = block['content'];
      if (typeof content === 'string') return content;
      if (Array.isArray(content)) return content.map((part) => blockText(part as Json)).join('\n');
      return '';
    }
    default:
      return JSON.stringify(withoutCacheControl(block));
  }
}

/** The request's blocks in prompt order: tools, system, then each message's content blocks. */
export function promptBlocks(body: Json): Block[] {
  const blocks: Block[] = [];
  const add = (section: string, block: Json, text: string) => {
    blocks.push({
      key: `${section}\u0000${JSON.stringify(withoutCacheControl(block))}`,
      tokens: countTokens(text) + BLOCK_FRAMING_TOKENS,
      breakpoint: block['cache_control'] !== undefined && block['cache_control'] !== null,
    });
  };
  for (const tool of (body['tools'] as Json[] | undefined) ?? [])
    add('tool', tool, JSON.stringify(withoutCacheControl(tool)));
  const system = body['system'];
  if (typeof system === 'string') add('system', { type: 'text', text: system }, system);
  else for (const block of (system as Json[] | undefined) ?? []) add('system', block, blockText(block));
  for (const message of (body['messages'] as Json[] | undefined) ?? []) {
    const content = message['content'];
    const parts: Json[] =
      typeof content === 'string' ? [{ type: 'text', text: content }] : (content as Json[]);
    for (const [index, part] of parts.entries())
      add(`${String(message['role'])}:${index}`, part, blockText(part));
  }
  return blocks;
}

/**
 * The cache of one (stand-in) Anthropic organisation: `account(body)` applies a request's reads and writes and
 * returns the usage the API would report for it.
 */
export class AnthropicPromptCache {
  readonly #entries = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  account(body: Json): AnthropicCacheUsage {
    const model = String(body['model']);
    const minimum = minimumCacheableTokens(model);
    const blocks = promptBlocks(body);
    const now = this.#now();
    // Prefix hash and token count after each block.
    const hashes: string[] = [];
    const prefixTokens: number[] = [];
    let running: Hash = createHash('sha256').update(model);
    let tokens = 0;
    for (const block of blocks) {
      running = running.update(block.key).update('\u0001');
      hashes.push(running.copy().digest('hex'));
      tokens += block.tokens;
      prefixTokens.push(tokens);
    }
    const total = tokens;
    const live = (hash: string) => {
      const expires = this.#entries.get(hash);
      return expires !== undefined && expires > now;
    };
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
    // The longest cached prefix found at a breakpoint or in the blocks just before it.
    let readEnd = -1;
    for (const point of breakpoints) {
      for (let index = point; index >= Math.max(0, point - LOOKBACK_BLOCKS + 1); index--) {
        if (live(hashes[index]!)) {
          if (index > readEnd) readEnd = index;
          break;
        }
      }
    }
    const read = readEnd >= 0 ? prefixTokens[readEnd]! : 0;
    if (readEnd >= 0) this.#entries.set(hashes[readEnd]!, now + CACHE_TTL_MS);
    // Every breakpoint long enough is cached (written now, or refreshed); the last one bounds the written part.
    let cachedEnd = readEnd;
    for (const point of breakpoints) {
      if (prefixTokens[point]! < minimum) continue;
      this.#entries.set(hashes[point]!, now + CACHE_TTL_MS);
      if (point > cachedEnd) cachedEnd = point;
    }
    const cached = cachedEnd >= 0 ? prefixTokens[cachedEnd]! : 0;
    return {
      input_tokens: total - cached,
      cache_creation_input_tokens: cached - read,
      cache_read_input_tokens: read,
    };
  }
}
