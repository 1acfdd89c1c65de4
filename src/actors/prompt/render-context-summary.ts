import type { FidelityMode, PipelineGraph } from '../../compiler/ir.js';
import type { CompletedStage, ContextValues } from '../handler-types.js';
import { formatContextValue } from './expand-context-keys.js';

export interface ContextSummaryInput {
  fidelity: FidelityMode;
  graph: Pick<PipelineGraph, 'name' | 'attrs'>;
  context: Readonly<ContextValues>;
  completedNodes: readonly CompletedStage[];
}

/** Values longer than this become a byte-count note in `compact`. */
const COMPACT_VALUE_LIMIT = 500;
/** `summary:high` cuts values here so 30 keys stay inside its ~3000-token budget. */
const SUMMARY_VALUE_LIMIT = 200;

interface Shape {
  /** How many of the most recent stages to list; `Infinity` for all, 0 for none. */
  stages: number;
  /** Only the number of completed stages. */
  stageCount: boolean;
  /** How many context keys to list. */
  keys: number;
  render: (value: string) => string;
  name: boolean;
}

const whole = (value: string): string => value;
const sizeNote = (value: string): string =>
  value.length > COMPACT_VALUE_LIMIT ? `<${Buffer.byteLength(value)} bytes>` : value;
const cut = (value: string): string =>
  value.length > SUMMARY_VALUE_LIMIT ? `${value.slice(0, SUMMARY_VALUE_LIMIT)}… [truncated]` : value;

/** What each fidelity mode lets the model see. */
const SHAPES: Record<FidelityMode, Shape> = {
  full: { name: true, stages: Infinity, stageCount: false, keys: Infinity, render: whole },
  compact: { name: true, stages: Infinity, stageCount: false, keys: Infinity, render: sizeNote },
  truncate: { name: true, stages: 0, stageCount: false, keys: 0, render: whole },
  'summary:high': { name: false, stages: 10, stageCount: false, keys: 30, render: cut },
  'summary:medium': { name: false, stages: 5, stageCount: false, keys: 0, render: whole },
  'summary:low': { name: false, stages: 0, stageCount: true, keys: 0, render: whole },
};

/** Engine bookkeeping and values already shown above are noise for the model. */
const HIDDEN_KEY = /^(internal\.|pipeline\.(name|goal)$|goal$)/;

/**
 * Render what a codergen node is told about the run so far, for its resolved fidelity.
 * Pure and deterministic: context keys are listed in sorted order.
 *
 * @example
 * renderContextSummary({ fidelity: 'summary:low', graph, context: { goal: 'Ship it' }, completedNodes })
 * // 'Goal: Ship it\nCompleted stages: 3'
 */
export function renderContextSummary(input: ContextSummaryInput): string {
  const { fidelity, graph, context, completedNodes } = input;
  const shape = SHAPES[fidelity];
  const goal = typeof context['goal'] === 'string' ? context['goal'] : (graph.attrs.goal ?? '');
  const lines: string[] = [];
  if (shape.name) lines.push(`Pipeline: ${graph.name}`);
  lines.push(`Goal: ${goal}`);
  if (shape.stageCount) lines.push(`Completed stages: ${completedNodes.length}`);
  if (shape.stages > 0 && completedNodes.length > 0) {
    const shown = shape.stages === Infinity ? completedNodes : completedNodes.slice(-shape.stages);
    const heading =
      shown.length < completedNodes.length
        ? `Completed stages (last ${shown.length} of ${completedNodes.length}):`
        : `Completed stages (${completedNodes.length}):`;
    lines.push(heading, ...shown.map((stage) => `- ${stage.id}: ${stage.status}`));
  }
  if (shape.keys > 0) {
    const keys = Object.keys(context)
      .filter((key) => !HIDDEN_KEY.test(key))
      .sort();
    const shown = shape.keys === Infinity ? keys : keys.slice(0, shape.keys);
    if (shown.length > 0) {
      lines.push(
        'Context:',
        ...shown.map((key) => `- ${key}: ${shape.render(formatContextValue(context[key]))}`),
      );
      if (shown.length < keys.length) lines.push(`- … ${keys.length - shown.length} more keys`);
    }
  }
  return lines.join('\n');
}
