import type { Attributes } from '@opentelemetry/api';
import type { EventData } from '../shared/pipeline-event.js';

/**
 * The OpenTelemetry GenAI semantic conventions' names (the `incubating` entry of
 * `@opentelemetry/semantic-conventions`), spelled out here: they are strings a trace backend matches
 * on, and the incubating entry's exports change between its releases.
 */
export const GenAi = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  conversationId: 'gen_ai.conversation.id',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  workflowName: 'gen_ai.workflow.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
} as const;

/** `gen_ai.operation.name` values used here. */
export const Operation = {
  workflow: 'invoke_workflow',
  agent: 'invoke_agent',
  chat: 'chat',
  tool: 'execute_tool',
} as const;

/** Attractor's own attributes, under its namespace. */
export const Attr = {
  runId: 'attractor.run.id',
  runStatus: 'attractor.run.status',
  runQuality: 'attractor.run.quality',
  execution: 'attractor.run.execution',
  nodeId: 'attractor.node.id',
  handler: 'attractor.node.handler',
  attempt: 'attractor.node.attempt',
  step: 'attractor.node.step',
  outcome: 'attractor.node.outcome',
  failureReason: 'attractor.node.failure_reason',
  route: 'attractor.node.route',
  routeRule: 'attractor.node.route_rule',
  branch: 'attractor.branch',
  parent: 'attractor.parent_node',
  costUsd: 'attractor.cost_usd',
  calls: 'attractor.model_calls',
  phase: 'attractor.model_call.phase',
  linkReason: 'attractor.link',
} as const;

/** The conventions' provider names where Attractor's differ (`gemini` is Google's Gemini API). */
const PROVIDER_NAMES: Readonly<Record<string, string>> = { gemini: 'gcp.gemini' };

export function providerName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

/** A model call's span attributes, from its `agent.usage` event. */
export function modelCallAttributes(data: EventData<'agent.usage'>): Attributes {
  const usage = data.usage;
  return {
    [GenAi.operation]: Operation.chat,
    ...(data.provider === undefined ? {} : { [GenAi.provider]: providerName(data.provider) }),
    ...(data.model === undefined
      ? {}
      : { [GenAi.requestModel]: data.model, [GenAi.responseModel]: data.model }),
    ...(data.session_id ? { [GenAi.conversationId]: data.session_id } : {}),
    ...(usage === undefined
      ? {}
      : {
          [GenAi.inputTokens]: usage.inputTokens,
          [GenAi.outputTokens]: usage.outputTokens,
          ...(usage.cacheReadTokens === undefined ? {} : { [GenAi.cacheReadTokens]: usage.cacheReadTokens }),
          ...(usage.cacheWriteTokens === undefined
            ? {}
            : { [GenAi.cacheWriteTokens]: usage.cacheWriteTokens }),
          ...(usage.reasoningTokens === undefined ? {} : { [GenAi.reasoningTokens]: usage.reasoningTokens }),
        }),
    ...(data.cost_usd === undefined ? {} : { [Attr.costUsd]: data.cost_usd }),
    ...(data.phase === undefined ? {} : { [Attr.phase]: data.phase }),
  };
}

/** Token counts and cost summed over calls (a node's `usage`, the run's in `pipeline.finalize`). */
export function usageTotalsAttributes(usage: Readonly<Record<string, unknown>> | undefined): Attributes {
  if (usage === undefined) return {};
  const attributes: Attributes = {};
  const copy = (from: string, to: string): void => {
    const value = usage[from];
    if (typeof value === 'number') attributes[to] = value;
  };
  copy('input_tokens', GenAi.inputTokens);
  copy('output_tokens', GenAi.outputTokens);
  copy('cache_read_tokens', GenAi.cacheReadTokens);
  copy('cache_write_tokens', GenAi.cacheWriteTokens);
  copy('reasoning_tokens', GenAi.reasoningTokens);
  copy('cost_usd', Attr.costUsd);
  copy('calls', Attr.calls);
  return attributes;
}

/** A message in the conventions' `gen_ai.*.messages` shape: a role and text parts. */
export function textMessages(role: 'user' | 'assistant', text: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
}
