import { parseAcceleratorKey } from '../../compiler/accelerator.js';
import type { PipelineGraph, PipelineNode } from '../../compiler/ir.js';
import type { Question, QuestionOption } from '../interviewers/interviewer.js';
import { isNoLike, isYesLike } from '../interviewers/match-option.js';

/**
 * The question a human gate asks (concepts §7): one option per outgoing edge, in declaration order —
 * two edges to the same node with different labels are two options (docs/decisions.md). The label is the
 * edge's, else its target id; the key comes from the label's accelerator.
 */
export function humanGateQuestion(node: PipelineNode, graph: Pick<PipelineGraph, 'edges'>): Question {
  const options: QuestionOption[] = graph.edges
    .filter((edge) => edge.source === node.id)
    .map((edge) => {
      const label = edge.attrs.label || edge.target;
      return { key: parseAcceleratorKey(label).key, label, target: edge.target };
    });
  const [first, second] = options;
  const yesNo =
    options.length === 2 &&
    first !== undefined &&
    second !== undefined &&
    ((isYesLike(first.label) && isNoLike(second.label)) ||
      (isNoLike(first.label) && isYesLike(second.label)));
  const timeoutMs = node.attrs['human.timeout'];
  const defaultChoice = node.attrs['human.default_choice'];
  return {
    text: node.attrs.label || node.attrs.prompt || 'Select an option:',
    type: yesNo ? 'yes_no' : 'multiple_choice',
    options,
    stage: node.id,
    // 0 means no timeout, as for node `timeout` everywhere else.
    ...(timeoutMs === undefined || timeoutMs <= 0 ? {} : { timeoutMs }),
    ...(defaultChoice === undefined ? {} : { defaultChoice }),
    // The gate's own extra attributes (e.g. `ui.hint="..."`) reach every interviewer untouched.
    ...(Object.keys(node.extra).length > 0 ? { metadata: { ...node.extra } } : {}),
  };
}
