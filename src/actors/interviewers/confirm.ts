import type { Interviewer } from './interviewer.js';

/**
 * A yes/no confirmation: the interviewer's own `confirm` when it
 * has one, else a `confirmation` question with Yes / No options. Only a yes (or the Yes option) is true.
 */
export async function confirm(
  interviewer: Interviewer,
  prompt: string,
  signal: AbortSignal,
  stage = '',
): Promise<boolean> {
  if (interviewer.confirm) return interviewer.confirm(prompt, signal, stage);
  const answer = await interviewer.ask(
    {
      text: prompt,
      type: 'confirmation',
      options: [
        { key: 'Y', label: 'Yes' },
        { key: 'N', label: 'No' },
      ],
      stage,
    },
    signal,
  );
  if (answer.value !== undefined) return answer.value === 'yes';
  return answer.selected?.key === 'Y';
}
