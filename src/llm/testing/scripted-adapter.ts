import { ConfigurationError } from '../errors/configuration-error.js';
import type { LLMError } from '../errors/llm-error.js';
import { EventListStream } from '../event-list-stream.js';
import { toolCallPart } from '../message.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { createResponse } from '../response.js';
import { responseToStreamEvents } from '../response-to-stream-events.js';
import { sleep } from '../retry.js';
import type { CallOptions, ContentPart, FinishReason, Request, Response, TokenUsage } from '../types.js';
import { createUsage } from '../usage.js';

/** One scripted model turn: a string is a plain text answer; an `error` is thrown instead of answering. */
export type ScriptedTurn =
  | string
  | {
      text?: string;
      reasoning?: string;
      toolCalls?: Array<{ name: string; arguments?: Record<string, unknown>; id?: string }>;
      finishReason?: FinishReason['reason'];
      usage?: Partial<TokenUsage>;
      model?: string;
      /** Waits this long before answering (honours the abort signal). */
      delayMs?: number;
    }
  | { error: LLMError }
  | Response;

export type ScriptedTurnSource =
  | ScriptedTurn[]
  | ((request: Request, callIndex: number) => ScriptedTurn | Promise<ScriptedTurn>);

export interface ScriptedAdapterOptions {
  turns: ScriptedTurnSource;
  /** Adapter name; defaults to `scripted`. Use a real provider's name to stand in for it. */
  name?: string;
  /** Which models it claims; by default every model, so it can replace all providers in tests. */
  supportsModel?: (model: string) => boolean;
  /** Stream delta size in characters. */
  chunkSize?: number;
}

export interface ScriptedCall {
  kind: 'complete' | 'stream';
  request: Request;
}

/** A scripted turn that answers (text, reasoning, tool calls) rather than throwing or being a whole Response. */
type ScriptedSpec = Exclude<ScriptedTurn, string | Response | { error: LLMError }>;

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * The request as it was when sent: a caller may go on appending to the messages array it lent the call (the
 * usual tool loop does), and `calls` must show what each call was sent (decision 0041).
 */
const asSent = (request: Request): Request => ({ ...request, messages: request.messages.slice() });

function isResponse(turn: ScriptedTurn): turn is Response {
  return typeof turn === 'object' && 'message' in turn && 'finishReason' in turn;
}

/**
 * A fake provider that answers from a script (a list of turns, or a function of the request) and records every
 * call. It drives every test above the LLM layer, and ships in `attractor-pipelines/testing` for users' own tests.
 *
 * @example
 * const adapter = new ScriptedAdapter({ turns: ['Hello', { toolCalls: [{ name: 'shell', arguments: { cmd: 'ls' } }] }] });
 * const client = new LLMClient({ adapters: [adapter] });
 */
export class ScriptedAdapter implements ProviderAdapter {
  readonly name: string;
  readonly calls: ScriptedCall[] = [];
  private readonly options: ScriptedAdapterOptions;

  constructor(options: ScriptedAdapterOptions) {
    this.options = options;
    this.name = options.name ?? 'scripted';
  }

  supportsModel(model: string): boolean {
    return this.options.supportsModel?.(model) ?? true;
  }

  async complete(request: Request, options: CallOptions = {}): Promise<Response> {
    this.calls.push({ kind: 'complete', request: asSent(request) });
    return this.answer(request, this.calls.length - 1, options);
  }

  stream(request: Request, options: CallOptions = {}): EventListStream {
    return new EventListStream(() => {
      this.calls.push({ kind: 'stream', request: asSent(request) });
      const index = this.calls.length - 1;
      // A turn the script gives at once is answered at once: the stream holds its events when it opens, as
      // cheap to read as `complete` (no promise before the first event).
      const turn = this.turnAt(request, index);
      const answered = isPromiseLike(turn)
        ? Promise.resolve(turn).then((resolved) => this.respond(resolved, request, index, options))
        : this.respond(turn, request, index, options);
      return isPromiseLike(answered)
        ? Promise.resolve(answered).then((response) =>
            responseToStreamEvents(response, this.options.chunkSize),
          )
        : responseToStreamEvents(answered, this.options.chunkSize);
    }, options.signal);
  }

  private async answer(request: Request, index: number, options: CallOptions): Promise<Response> {
    const source = this.options.turns;
    const turn = typeof source === 'function' ? await source(request, index) : source[index];
    return this.respond(turn, request, index, options);
  }

  private turnAt(request: Request, index: number): ScriptedTurn | undefined | PromiseLike<ScriptedTurn> {
    const source = this.options.turns;
    return typeof source === 'function' ? source(request, index) : source[index];
  }

  /** The response to one turn: at once, unless the turn asks for a delay. */
  private respond(
    turn: ScriptedTurn | undefined,
    request: Request,
    index: number,
    options: CallOptions,
  ): Response | Promise<Response> {
    const source = this.options.turns;
    if (turn === undefined) {
      throw new ConfigurationError(
        `ScriptedAdapter: no scripted turn for call #${index + 1} (the script has ${Array.isArray(source) ? source.length : 0}).`,
      );
    }
    if (typeof turn === 'object' && 'error' in turn) throw turn.error;
    if (isResponse(turn)) return turn;
    const spec = typeof turn === 'string' ? { text: turn } : turn;
    if (spec.delayMs) {
      return sleep(spec.delayMs, options.signal).then(() => this.build(spec, request, index, options));
    }
    return this.build(spec, request, index, options);
  }

  private build(spec: ScriptedSpec, request: Request, index: number, options: CallOptions): Response {
    if (options.signal?.aborted) throw options.signal.reason;
    const content: ContentPart[] = [];
    if (spec.reasoning !== undefined)
      content.push({ kind: 'thinking', text: spec.reasoning, signature: 'scripted' });
    if (spec.text !== undefined) content.push({ kind: 'text', text: spec.text });
    (spec.toolCalls ?? []).forEach((call, callIndex) => {
      const id = call.id ?? `call_${index + 1}_${callIndex + 1}`;
      content.push(toolCallPart(id, call.name, JSON.stringify(call.arguments ?? {})));
    });
    const hasCalls = (spec.toolCalls?.length ?? 0) > 0;
    return createResponse({
      id: `scripted-${index + 1}`,
      model: spec.model ?? request.model,
      provider: this.name,
      message: { role: 'assistant', content },
      finishReason: { reason: spec.finishReason ?? (hasCalls ? 'tool_calls' : 'stop') },
      usage: createUsage({ inputTokens: 10, outputTokens: 5, ...spec.usage }),
    });
  }
}
