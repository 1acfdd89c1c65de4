import type { ContentBlock, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { definedFields } from '../../shared/defined-fields.js';
import type { EventData, EventKind } from '../../shared/pipeline-event.js';

/** The pipeline event kinds of an agent's conversation, `agent.*`. */
export type AgentEventKindName = Extract<EventKind, `agent.${string}`>;

/** An agent event before the engine adds its node and time. */
export type AgentPipelineEvent = {
  [K in AgentEventKindName]: { kind: K; data: EventData<K> };
}[AgentEventKindName];

/** Reports one agent event: the kind's data is checked against its schema. */
export type EmitAgentEvent = <K extends AgentEventKindName>(kind: K, data: EventData<K>) => void;

function textOf(block: ContentBlock): string | undefined {
  return block.type === 'text' ? block.text : undefined;
}

/** What a tool call produced, as text: its content blocks, diffs as their path, terminals by id. */
function contentText(content: readonly ToolCallContent[] | null | undefined): string | undefined {
  if (!content || content.length === 0) return undefined;
  return content
    .map((item) => {
      if (item.type === 'content') return textOf(item.content) ?? `[${item.content.type}]`;
      if (item.type === 'diff') return `[diff ${item.path}]`;
      return `[terminal ${item.terminalId}]`;
    })
    .join('\n');
}

/**
 * Turns ACP `session/update` notifications into the `agent.*` pipeline events the built-in agent emits
 * (so `--json`, the TUI and the server show an external agent the same way), and keeps the turn's final
 * message. Names follow the built-in session's events (`text`, `tool_call_id`) plus the ACP-facing
 * aliases (`delta`, `call_id`).
 */
export class SessionUpdateEvents {
  #message = '';
  readonly #toolNames = new Map<string, string>();
  readonly #ended = new Set<string>();

  /** The agent's message text so far (all `agent_message_chunk` text of this turn). */
  get message(): string {
    return this.#message;
  }

  map(update: SessionUpdate): AgentPipelineEvent[] {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        const text = textOf(update.content);
        if (text === undefined) return [];
        this.#message += text;
        return [{ kind: 'agent.assistant_text_delta', data: { delta: text, text } }];
      }
      case 'agent_thought_chunk': {
        const text = textOf(update.content);
        return text === undefined ? [] : [{ kind: 'agent.thought_delta', data: { delta: text, text } }];
      }
      case 'tool_call': {
        const name = update.name ?? update.title;
        this.#toolNames.set(update.toolCallId, name);
        const events: AgentPipelineEvent[] = [
          {
            kind: 'agent.tool_call_start',
            data: {
              tool_name: name,
              call_id: update.toolCallId,
              tool_call_id: update.toolCallId,
              arguments: update.rawInput ?? {},
              title: update.title,
              ...definedFields({ tool_kind: update.kind }),
              status: update.status ?? 'pending',
            },
          },
        ];
        return [
          ...events,
          ...this.#endIfDone(update.toolCallId, update.status, update.content, update.rawOutput),
        ];
      }
      case 'tool_call_update': {
        const output = contentText(update.content);
        const events: AgentPipelineEvent[] = [
          {
            kind: 'agent.tool_call_update',
            data: {
              call_id: update.toolCallId,
              tool_call_id: update.toolCallId,
              tool_name: this.#toolNames.get(update.toolCallId) ?? update.title ?? '',
              ...(update.status ? { status: update.status } : {}),
              ...(update.title ? { title: update.title } : {}),
              ...definedFields({ output }),
            },
          },
        ];
        return [
          ...events,
          ...this.#endIfDone(update.toolCallId, update.status, update.content, update.rawOutput),
        ];
      }
      case 'plan':
        return [
          {
            kind: 'agent.plan',
            data: {
              entries: update.entries.map(({ content, priority, status }) => ({ content, priority, status })),
            },
          },
        ];
      case 'usage_update': {
        const cost = update.cost ?? undefined;
        return [
          {
            kind: 'agent.usage',
            data: {
              context_used: update.used,
              context_size: update.size,
              ...(cost ? { cost: { amount: cost.amount, currency: cost.currency } } : {}),
              ...(cost && cost.currency.toUpperCase() === 'USD' ? { cost_usd: cost.amount } : {}),
            },
          },
        ];
      }
      default:
        return [];
    }
  }

  #endIfDone(
    callId: string,
    status: string | null | undefined,
    content: readonly ToolCallContent[] | null | undefined,
    rawOutput: unknown,
  ): AgentPipelineEvent[] {
    if ((status !== 'completed' && status !== 'failed') || this.#ended.has(callId)) return [];
    this.#ended.add(callId);
    const output = contentText(content) ?? (rawOutput === undefined ? '' : JSON.stringify(rawOutput));
    return [
      {
        kind: 'agent.tool_call_end',
        data: {
          call_id: callId,
          tool_call_id: callId,
          tool_name: this.#toolNames.get(callId) ?? '',
          status,
          output,
          is_error: status === 'failed',
        },
      },
    ];
  }
}
