import type { Request, Response, StreamEvent, ToolDefinition } from '../../../llm/index.js';
import { AttractorError } from '../../../shared/errors.js';
import { AgentEventKind } from './agent-event.js';
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

/** One model request for the current history (public specification §2.5 step 3). */
export function buildRequest(rt: SessionRuntime): Request {
  const request: Request = {
    model: rt.model,
    provider: rt.profile.providerName,
    systemPrompt: rt.systemPrompt,
    messages: rt.messages.for(rt.history),
    toolChoice: { mode: 'auto' },
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
 * Streams one model turn, turning text deltas into ASSISTANT_TEXT_START/DELTA/END as they arrive, and returns
 * the assembled response. LLM errors propagate (typed) to the loop, which decides what they mean.
 */
export function streamModelTurn(rt: SessionRuntime, signal: AbortSignal): Promise<Response> {
  let started = false;
  let response: Response | undefined;
  // Each event is handled as the client hands it over, with no promise per event (StreamResult.response).
  const onEvent = (event: StreamEvent): void => {
    if (event.type === 'text_start' || event.type === 'text_delta') {
      if (!started) {
        started = true;
        rt.emit(AgentEventKind.ASSISTANT_TEXT_START);
      }
      if (event.type === 'text_delta') rt.emit(AgentEventKind.ASSISTANT_TEXT_DELTA, { text: event.delta });
    } else if (event.type === 'finish') {
      response = event.response;
    }
  };
  return rt.client
    .stream(buildRequest(rt), { signal })
    .response(onEvent)
    .then(() => {
      if (!response) {
        throw new AttractorError(
          'agent.stream_incomplete',
          `The ${rt.model} stream ended without a response.`,
        );
      }
      if (started || response.text !== '') {
        if (!started) rt.emit(AgentEventKind.ASSISTANT_TEXT_START);
        rt.emit(AgentEventKind.ASSISTANT_TEXT_END, { text: response.text });
      }
      return response;
    });
}
