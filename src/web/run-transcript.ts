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
    const node = event.node_id ?? '';
    const last = entries.at(-1);
    switch (event.kind) {
      case 'agent.assistant_text_delta':
      case 'agent.thought_delta': {
        const type = event.kind === 'agent.thought_delta' ? 'thought' : 'text';
        const { text } = event.data;
        if (last && last.type === type && last.node === node) last.text += text;
        else if (text !== '') entries.push({ type, node, text });
        break;
      }
      case 'agent.tool_call_start': {
        const entry = {
          type: 'tool' as const,
          node,
          id: event.data.tool_call_id,
          name: event.data.tool_name || 'tool',
          args: argsText(event.data.arguments),
          output: '',
          isError: false,
          done: false,
        };
        tools.set(entry.id, entry);
        entries.push(entry);
        break;
      }
      case 'agent.tool_call_output_delta': {
        const entry = tools.get(event.data.tool_call_id);
        if (entry) entry.output += event.data.text;
        break;
      }
      case 'agent.tool_call_end': {
        const entry = tools.get(event.data.tool_call_id);
        if (!entry) break;
        entry.output = event.data.output || entry.output;
        entry.isError = event.data.is_error;
        entry.done = true;
        break;
      }
      case 'agent.error':
        entries.push({ type: 'note', node, text: event.data.error || event.kind });
        break;
      case 'agent.warning':
        entries.push({ type: 'note', node, text: event.data.message || event.kind });
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
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  for (const e of events) {
    if (e.kind !== 'agent.usage' || e.node_id !== node) continue;
    costUsd += n(e.data.cost_usd);
    inputTokens += n(e.data.usage?.inputTokens);
    outputTokens += n(e.data.usage?.outputTokens);
  }
  return { costUsd, inputTokens, outputTokens };
}
