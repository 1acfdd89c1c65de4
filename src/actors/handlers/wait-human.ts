import type { PipelineGraph } from '../../compiler/ir.js';
import type { Outcome } from '../../compiler/outcome.js';
import { definedFields } from '../../shared/defined-fields.js';
import type { NodeHandler } from '../handler-types.js';
import { checkAnswer } from '../interviewers/check-answer.js';
import { gateTimedOut } from '../interviewers/gate-timed-out.js';
import type { Answer, Question, QuestionOption } from '../interviewers/interviewer.js';
import { matchOption } from '../interviewers/match-option.js';
import { humanGateQuestion } from './human-gate-question.js';

const TIMED_OUT = Symbol('timed out');

function selectedOutcome(
  graph: PipelineGraph,
  nodeId: string,
  question: Question,
  option: QuestionOption,
  notes: string,
  text?: string,
): Outcome {
  const edge = graph.edges.find(
    (candidate) =>
      candidate.source === nodeId &&
      candidate.target === option.target &&
      (candidate.attrs.label || candidate.target) === option.label,
  );
  return {
    status: 'success',
    // Without a label of its own the edge is reached by its target alone.
    ...(edge?.attrs.label ? { preferred_label: edge.attrs.label } : {}),
    suggested_next_ids: option.target ? [option.target] : [],
    context_updates: {
      'human.gate.selected': option.key,
      'human.gate.label': option.label,
      // A gate that takes text always sets it, so an earlier visit's text never lingers.
      ...(question.textOption ? { 'human.gate.text': text ?? '' } : {}),
    },
    notes,
  };
}

/**
 * A human gate (docs/semantics.md): asks the interviewer to pick one of the outgoing edges and
 * returns SUCCESS with `preferred_label` = its label, `suggested_next_ids` = [its target] and context
 * `human.gate.selected` / `human.gate.label` (and `human.gate.text`, the free text of a gate with
 * `human.freeform`). `human.timeout` (ms) bounds the wait; on timeout `human.default_choice` (a key,
 * label or target id) is taken, else RETRY. A skipped question FAILs, and so does an answer that names
 * none of the options (an interviewer's bug: no typo ever picks an edge).
 */
export const waitHumanHandler: NodeHandler = async ({ node, graph, signal, services }) => {
  const question = humanGateQuestion(node, graph);
  if (question.options.length === 0)
    return { status: 'fail', failure_reason: 'No outgoing edges for human gate' };
  services.emit(
    'interview.start',
    {
      question: question.text,
      type: question.type,
      options: question.options.map(({ key, label, target }) => ({ key, label, target })),
      ...(question.textOption ? { text_option: question.textOption.key } : {}),
      ...(question.timeoutMs === undefined ? {} : { timeout_ms: question.timeoutMs }),
      ...(question.defaultChoice === undefined ? {} : { default_choice: question.defaultChoice }),
    },
    node.id,
  );

  const timeout = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
    if (question.timeoutMs === undefined) return;
    timer = setTimeout(() => {
      resolve(TIMED_OUT);
      timeout.abort(gateTimedOut(question.timeoutMs ?? 0));
    }, question.timeoutMs);
  });
  let answer: Answer | typeof TIMED_OUT;
  try {
    answer = await Promise.race([
      services.interviewer.ask(question, AbortSignal.any([signal, timeout.signal])),
      timedOut,
    ]);
  } catch (error) {
    if (timeout.signal.aborted) answer = TIMED_OUT;
    else if (signal.aborted) return { status: 'fail', failure_reason: 'cancelled' };
    else throw error;
  } finally {
    clearTimeout(timer);
  }

  if (answer === TIMED_OUT || answer.value === 'timeout') {
    const fallback =
      question.defaultChoice === undefined
        ? undefined
        : matchOption(question.options, question.defaultChoice);
    services.emit(
      'interview.timeout',
      { default_choice: question.defaultChoice ?? null, ...(fallback ? { selected: fallback.key } : {}) },
      node.id,
    );
    if (!fallback) return { status: 'retry', failure_reason: 'human gate timeout, no default' };
    return selectedOutcome(
      graph,
      node.id,
      question,
      fallback,
      `Timed out; used default choice ${question.defaultChoice}`,
    );
  }
  const checked = checkAnswer(question, answer);
  if (!checked.ok) {
    services.emit('interview.complete', { refused: checked.reason, ...answeredBy(answer) }, node.id);
    return { status: 'fail', failure_reason: `answer refused: ${checked.reason}` };
  }
  if (checked.value === 'skipped' || !checked.option) {
    services.emit('interview.complete', { skipped: true, ...answeredBy(answer) }, node.id);
    return { status: 'fail', failure_reason: 'human skipped interaction' };
  }
  const { option, text } = checked;
  services.emit(
    'interview.complete',
    {
      key: option.key,
      label: option.label,
      target: option.target,
      ...definedFields({ text }),
      ...answeredBy(answer),
    },
    node.id,
  );
  const notes =
    text !== undefined
      ? `Human answered ${JSON.stringify(text)} (${option.label})`
      : `Human selected: ${option.label}`;
  return selectedOutcome(graph, node.id, question, option, notes, text);
};

/** Who answered, as the event records it (decision 0410). */
function answeredBy(answer: Answer): { answered_by?: string } {
  return answer.answeredBy !== undefined ? { answered_by: answer.answeredBy } : {};
}
