import type { PipelineEvent } from '../shared/pipeline-event.js';

export type TranscriptEntry =
  | { type: 'text'; node: string; text: string }
  | { type: 'thought'; node: string; text: string }
  | {
      type: 'tool';
      node: string;
      id: string;
      name: string;
      args: string;
      output: string;
      isError: boolean;
      done: boolean;
    }
  | { type: 'note'; node: string; text: string };

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
/** The built-in agent names a field `text`; events from ACP agents carry the same under `delta` too. */
const textOf = (d: Record<string, unknown>): string => str(d['text'] ?? d['delta']);
const callIdOf = (d: Record<string, unknown>): string => str(d['tool_call_id'] ?? d['call_id']);

const argsText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2);

/**
 * The agent's transcript from a run's events: consecutive text (or thought) deltas of one node make one
 * entry, each tool call one entry filled in by its output and end. Pure, so the page can fold the
 * events it has whenever more arrive.
 */
export function buildTranscript(events: readonly PipelineEvent[]): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const tools = new Map<string, Extract<TranscriptEntry, { type: 'tool' }>>();
  for (const event of events) {
    if (!event.kind.startsWith('agent.')) continue;
    const node = event.node_id ?? '';
    const d = event.data;
    const last = entries.at(-1);
    switch (event.kind) {
      case 'agent.assistant_text_delta':
      case 'agent.thought_delta': {
        const type = event.kind === 'agent.thought_delta' ? 'thought' : 'text';
        const text = textOf(d);
        if (last && last.type === type && last.node === node) last.text += text;
        else if (text !== '') entries.push({ type, node, text });
        break;
      }
      case 'agent.tool_call_start': {
        const entry = {
          type: 'tool' as const,
          node,
          id: callIdOf(d),
          name: str(d['tool_name']) || 'tool',
          args: argsText(d['arguments']),
          output: '',
          isError: false,
          done: false,
        };
        tools.set(entry.id, entry);
        entries.push(entry);
        break;
      }
      case 'agent.tool_call_output_delta': {
        const entry = tools.get(callIdOf(d));
        if (entry) entry.output += textOf(d);
        break;
      }
      case 'agent.tool_call_end': {
        const entry = tools.get(callIdOf(d));
        if (!entry) break;
        entry.output = str(d['output']) || entry.output;
        entry.isError = d['is_error'] === true;
        entry.done = true;
        break;
      }
      case 'agent.error':
      case 'agent.warning':
        entries.push({ type: 'note', node, text: str(d['message']) || str(d['error']) || event.kind });
        break;
    }
  }
  return entries;
}

/** What one node's agent calls cost, from `agent.usage` events. */
export function nodeCost(
  events: readonly PipelineEvent[],
  node: string,
): { costUsd: number; inputTokens: number; outputTokens: number } {
  let costUsd = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const e of events) {
    if (e.kind !== 'agent.usage' || e.node_id !== node) continue;
    const usage = (e.data['usage'] ?? {}) as Record<string, unknown>;
    const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    costUsd += n(e.data['cost_usd']);
    inputTokens += n(usage['inputTokens'] ?? usage['input_tokens']);
    outputTokens += n(usage['outputTokens'] ?? usage['output_tokens']);
  }
  return { costUsd, inputTokens, outputTokens };
}
