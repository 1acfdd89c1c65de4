import type { Request, Response, StreamEvent, ToolDefinition } from '../../llm/index.js';
import { AttractorError } from '../../shared/errors.js';
import { AgentEventKind } from './agent-event.js';
import { outputBudget } from './output-budget.js';
import type { SessionRuntime } from './session-runtime.js';

const definitionsCache = new WeakMap<ReadonlyMap<string, unknown>, ToolDefinition[]>();

/** The tool definitions the model sees, in registration order (computed once per tool set). */
export function toolDefinitions(rt: Pick<SessionRuntime, 'tools'>): ToolDefinition[] {
  let definitions = definitionsCache.get(rt.tools);
  if (!definitions) {
    definitions = [...rt.tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.jsonSchema,
    }));
    definitionsCache.set(rt.tools, definitions);
  }
  return definitions;
}

/** What every request carries besides the history (no closure per round: only read before a measurement). */
export const fixedChars = (rt: SessionRuntime): number =>
  rt.systemPrompt.length + JSON.stringify(toolDefinitions(rt)).length;

/** Tokens the next request will carry, by the context window tracker's measure. */
export function estimateNextInput(rt: SessionRuntime): number {
  return rt.contextWindow.estimateNext(rt.history, fixedChars, rt);
}

/**
 * One model request for the current history, asking for the session's
 * output limit (as far as the context window allows) rather than an adapter's default.
 */
export function buildRequest(rt: SessionRuntime): Request {
  const request: Request = {
    model: rt.model,
    provider: rt.profile.providerName,
    systemPrompt: rt.systemPrompt,
    messages: rt.messages.for(rt.history),
    toolChoice: { mode: 'auto' },
    maxTokens: outputBudget(
      rt.outputLimit,
      rt.contextWindow.size,
      rt.contextWindow.estimateNextParts(rt.history, fixedChars, rt),
    ),
  };
  const tools = toolDefinitions(rt);
  if (tools.length > 0) request.tools = tools;
  if (rt.reasoningEffort !== undefined && rt.profile.supportsReasoning) {
    request.reasoningEffort = rt.reasoningEffort;
  }
  const providerOptions = rt.profile.providerOptions();
  if (providerOptions) request.providerOptions = providerOptions;
  return request;
}

/**
 * One model turn, streamed: text deltas become ASSISTANT_TEXT_START/DELTA/END as they arrive. `done` settles
 * when the stream is over (rejecting with the typed LLM error, which the loop judges); then `finish()` ends
 * the turn and returns the assembled response. Two steps rather than a promise of the response, so the loop
 * reads the response in the job that resumes it (no promise between the stream's end and the loop).
 */
export class ModelTurn {
  readonly done: Promise<unknown>;
  /** The output tokens this turn asked for. */
  readonly maxTokens: number;
  readonly #rt: SessionRuntime;
  #started = false;
  #response: Response | undefined;

  constructor(rt: SessionRuntime, signal: AbortSignal) {
    this.#rt = rt;
    const request = buildRequest(rt);
    this.maxTokens = request.maxTokens!;
    // Each event is handled as the client hands it over, with no promise per event (StreamResult.drain).
    this.done = rt.client.stream(request, { signal }).drain(this.#onEvent);
  }

  readonly #onEvent = (event: StreamEvent): void => {
    if (event.type === 'text_start' || event.type === 'text_delta') {
      if (!this.#started) {
        this.#started = true;
        this.#rt.emit(AgentEventKind.ASSISTANT_TEXT_START, {});
      }
      if (event.type === 'text_delta') {
        this.#rt.emit(AgentEventKind.ASSISTANT_TEXT_DELTA, { text: event.delta });
      }
    } else if (event.type === 'finish') {
      this.#response = event.response;
    }
  };

  /** After `done` resolved: ASSISTANT_TEXT_END when there was text, and the response. */
  finish(): Response {
    const rt = this.#rt;
    const response = this.#response;
    if (!response) {
      throw new AttractorError('agent.stream_incomplete', `The ${rt.model} stream ended without a response.`);
    }
    if (this.#started || response.text !== '') {
      if (!this.#started) rt.emit(AgentEventKind.ASSISTANT_TEXT_START, {});
      rt.emit(AgentEventKind.ASSISTANT_TEXT_END, { text: response.text });
    }
    return response;
  }
}
