import { definedFields } from '../shared/defined-fields.js';
import type { AgentAction } from './agent-event-map.js';
import type { ActivityItem, NodeView } from './run-state.js';

/** Bounds on what one node keeps, so an hours-long agent session cannot grow the TUI without limit. */
const MAX_ITEMS = 400;
const MAX_OUTPUT_CHARS = 32_000;

const keepTail = (text: string, max: number): string =>
  text.length > max ? text.slice(text.length - max) : text;

/** Folds one agent action into a node's activity list (pure; returns a new node when it changes). */
export function applyAgentAction(node: NodeView, action: AgentAction, nextId: number): NodeView {
  const items = node.activity;
  const last = items.at(-1);
  // Streamed text and thoughts run until something else comes between them.
  const closeText = (list: ActivityItem[]): ActivityItem[] =>
    (last?.kind === 'text' || last?.kind === 'thought') && !last.done
      ? [...list.slice(0, -1), { ...last, done: true }]
      : list;
  const bounded = (list: ActivityItem[]) =>
    list.length > MAX_ITEMS ? list.slice(list.length - MAX_ITEMS) : list;
  switch (action.type) {
    case 'text':
    case 'thought': {
      if (action.delta === '') return node;
      const kind = action.type;
      if (last?.kind === kind && !last.done) {
        return { ...node, activity: [...items.slice(0, -1), { ...last, text: last.text + action.delta }] };
      }
      return {
        ...node,
        activity: bounded([...closeText(items), { kind, id: nextId, text: action.delta, done: false }]),
      };
    }
    case 'plan':
      return {
        ...node,
        activity: bounded([
          ...closeText(items).filter((item) => item.kind !== 'plan'),
          { kind: 'plan', id: nextId, entries: action.entries },
        ]),
      };
    case 'tool_start':
      return {
        ...node,
        activity: bounded([
          ...closeText(items),
          {
            kind: 'tool',
            id: nextId,
            callId: action.callId,
            name: action.name,
            args: action.args,
            status: 'running',
            output: '',
            ...definedFields({ startedAt: action.at }),
          },
        ]),
      };
    case 'tool_output':
    case 'tool_end': {
      const index = items.findLastIndex((item) => item.kind === 'tool' && item.callId === action.callId);
      const item = items[index];
      if (item?.kind !== 'tool') return node;
      const updated =
        action.type === 'tool_output'
          ? { ...item, output: keepTail(item.output + action.delta, MAX_OUTPUT_CHARS) }
          : {
              ...item,
              status: action.isError ? ('error' as const) : ('ok' as const),
              output: keepTail(action.output || item.output, MAX_OUTPUT_CHARS),
              ...durationOf(action, item),
            };
      return { ...node, activity: items.map((x, i) => (i === index ? updated : x)) };
    }
    case 'warning':
      return {
        ...node,
        activity: bounded([...closeText(items), { kind: 'warning', id: nextId, message: action.message }]),
      };
    case 'usage':
      return {
        ...node,
        costUsd: node.costUsd + action.costUsd,
        ...(action.model ? { model: action.model } : {}),
      };
  }
}

/** The time between the call's start and end events. */
function durationOf(action: { at?: number }, item: { startedAt?: number }): { durationMs?: number } {
  if (action.at !== undefined && item.startedAt !== undefined)
    return { durationMs: Math.max(0, action.at - item.startedAt) };
  return {};
}
