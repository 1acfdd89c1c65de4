import type { Answer, Question } from '../actors/interviewers/interviewer.js';
import { resolveScriptedAnswer } from '../actors/interviewers/resolve-scripted-answer.js';

export interface GateInputState {
  /** Highlighted option (↑/↓). */
  cursor: number;
  /** Text typed so far (free-form questions, or `/`-started text on choice questions). */
  typed: string;
  typing: boolean;
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

/**
 * One key press at a gate prompt (pure): ↑/↓ move, Enter picks the highlighted option (or sends the
 * typed text), an option's accelerator key picks it at once, `/` starts a free-form answer on a choice
 * question, Esc leaves it. Returns the answer once there is one.
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
      if (text === '') return { state };
      return {
        state,
        answer: question.type === 'freeform' ? { text } : resolveScriptedAnswer(question, text),
      };
    }
    if (key.escape && question.type !== 'freeform') return { state: { ...state, typing: false, typed: '' } };
    if (key.backspace || key.delete) return { state: { ...state, typed: state.typed.slice(0, -1) } };
    if (key.upArrow || key.downArrow || key.input === '') return { state };
    return { state: { ...state, typed: state.typed + key.input } };
  }
  if (key.upArrow) return { state: { ...state, cursor: (state.cursor - 1 + count) % Math.max(1, count) } };
  if (key.downArrow) return { state: { ...state, cursor: (state.cursor + 1) % Math.max(1, count) } };
  if (key.return) {
    const option = question.options[state.cursor];
    return option ? { state, answer: { selected: option } } : { state };
  }
  if (key.input === '/') return { state: { ...state, typing: true, typed: '' } };
  if (key.input.length === 1) {
    const option = question.options.find((o) => o.key.toLowerCase() === key.input.toLowerCase());
    if (option) return { state, answer: { selected: option } };
    if (question.type === 'yes_no' || question.type === 'confirmation') {
      const answer = resolveScriptedAnswer(question, key.input);
      if (answer.selected || answer.value) return { state, answer };
    }
  }
  return { state };
}
