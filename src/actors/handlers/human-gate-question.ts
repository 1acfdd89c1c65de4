import { freeTextChoice, gateChoices } from '../../compiler/gate-choices.js';
import type { PipelineGraph, PipelineNode } from '../../compiler/ir.js';
import { definedFields } from '../../shared/defined-fields.js';
import type { Question, QuestionOption } from '../interviewers/interviewer.js';
import { isNoLike, isYesLike } from '../interviewers/match-option.js';

/**
 * The question a human gate asks: one option per outgoing edge, in declaration order —
 * two edges to the same node with different labels are two options (docs/semantics.md). The label is the
 * edge's, else its target id; the key comes from the label's accelerator.
 */
export function humanGateQuestion(node: PipelineNode, graph: Pick<PipelineGraph, 'edges'>): Question {
  const options: QuestionOption[] = gateChoices(node, graph.edges);
  const [first, second] = options;
  const yesNo =
    options.length === 2 &&
    first !== undefined &&
    second !== undefined &&
    ((isYesLike(first.label) && isNoLike(second.label)) ||
      (isNoLike(first.label) && isYesLike(second.label)));
  const timeoutMs = node.attrs['human.timeout'];
  const defaultChoice = node.attrs['human.default_choice'];
  const textOption = freeTextChoice(node.attrs['human.freeform'], options);
  return {
    text: node.attrs.label || node.attrs.prompt || 'Select an option:',
    // One way on and free text accepted: the question is the text (what to build, why it was refused).
    type: textOption && options.length === 1 ? 'freeform' : yesNo ? 'yes_no' : 'multiple_choice',
    options,
    stage: node.id,
    ...definedFields({ textOption }),
    // 0 means no timeout, as for node `timeout` everywhere else.
    ...(timeoutMs === undefined || timeoutMs <= 0 ? {} : { timeoutMs }),
    ...(defaultChoice === undefined ? {} : { defaultChoice }),
    // The gate's own extra attributes (e.g. `ui.hint="..."`) reach every interviewer untouched.
    ...(Object.keys(node.extra).length > 0 ? { metadata: { ...node.extra } } : {}),
  };
}
