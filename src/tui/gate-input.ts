import { checkAnswer } from '../actors/interviewers/check-answer.js';
import type { Answer, Question } from '../actors/interviewers/interviewer.js';
import { resolveScriptedAnswer } from '../actors/interviewers/resolve-scripted-answer.js';

export interface GateInputState {
  /** Highlighted option (↑/↓). */
  cursor: number;
  /** Text typed so far (free-form questions, or `/`-started text on choice questions). */
  typed: string;
  typing: boolean;
  /** Why the last answer was refused (it named no option); cleared by the next key. */
  error?: string;
}

export interface GateKey {
  input: string;
  upArrow?: boolean;
  downArrow?: boolean;
  return?: boolean;
  backspace?: boolean;
  delete?: boolean;
  escape?: boolean;
}

export const initialGateInput = (question: Question): GateInputState => ({
  cursor: 0,
  typed: '',
  typing: question.type === 'freeform' || question.options.length === 0,
});

/** The state after a key, with the last refusal cleared. */
const next = (state: GateInputState, change: Partial<GateInputState>): GateInputState => {
  const { error: _error, ...rest } = state;
  return { ...rest, ...change };
};

/**
 * One key press at a gate prompt (pure): ↑/↓ move, Enter picks the highlighted option (or sends the
 * typed text), an option's accelerator key picks it at once, `/` starts typing an answer (an option's
 * key or label, or free text where the gate takes it), Esc leaves it. Typed text that names no option
 * of a gate that takes no free text is refused: the gate stays open and `error` says why. Returns the
 * answer once there is one.
 */
export function gateInput(
  question: Question,
  state: GateInputState,
  key: GateKey,
): { state: GateInputState; answer?: Answer } {
  const count = question.options.length;
  if (state.typing) {
    if (key.return) {
      const text = state.typed.trim();
      if (text === '') return { state: next(state, {}) };
      const answer = question.type === 'freeform' ? { text } : resolveScriptedAnswer(question, text);
      const checked = checkAnswer(question, answer);
      if (!checked.ok) return { state: { ...state, error: checked.reason } };
      return { state: next(state, {}), answer };
    }
    if (key.escape && question.type !== 'freeform')
      return { state: next(state, { typing: false, typed: '' }) };
    if (key.backspace || key.delete) return { state: next(state, { typed: state.typed.slice(0, -1) }) };
    if (key.upArrow || key.downArrow || key.input === '') return { state };
    return { state: next(state, { typed: state.typed + key.input }) };
  }
  if (key.upArrow) return { state: next(state, { cursor: (state.cursor - 1 + count) % Math.max(1, count) }) };
  if (key.downArrow) return { state: next(state, { cursor: (state.cursor + 1) % Math.max(1, count) }) };
  if (key.return) {
    const option = question.options[state.cursor];
    return option ? { state: next(state, {}), answer: { selected: option } } : { state };
  }
  if (key.input === '/') return { state: next(state, { typing: true, typed: '' }) };
  if (key.input.length === 1) {
    const option = question.options.find((o) => o.key.toLowerCase() === key.input.toLowerCase());
    if (option) return { state: next(state, {}), answer: { selected: option } };
    if (question.type === 'yes_no' || question.type === 'confirmation') {
      const answer = resolveScriptedAnswer(question, key.input);
      if (answer.selected || answer.value) return { state: next(state, {}), answer };
    }
  }
  return { state };
}
