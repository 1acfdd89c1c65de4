import type { Answer, Interviewer, Question } from './interviewer.js';

/**
 * Ask several questions: all at once when the interviewer can (a form in a UI), else one after the
 * other in order. Answers come back in the questions' order.
 *
 * @example
 * const [name, ok] = await askMultiple(interviewer, [nameQuestion, approveQuestion], signal);
 */
export async function askMultiple(
  interviewer: Interviewer,
  questions: readonly Question[],
  signal: AbortSignal,
): Promise<Answer[]> {
  if (interviewer.askMultiple) return interviewer.askMultiple(questions, signal);
  const answers: Answer[] = [];
  for (const question of questions) answers.push(await interviewer.ask(question, signal));
  return answers;
}
