import { Message, messageText, messageToolCalls } from '../../llm/index.js';
import { AgentEventKind } from './agent-event.js';
import { estimateTokens, historyTokens, turnChars } from './context-window-tracker.js';
import type { SessionRuntime } from './session-runtime.js';
import { type Turn, Turns } from './turn.js';

/** Share of the context window the kept recent turns may use; the summary and the next answer need the rest. */
const KEEP_FRACTION = 0.3;
/** Share of the current history kept when the provider reported a context overflow anyway. */
const AFTER_OVERFLOW_KEEP_FRACTION = 0.25;
/** Each tool result is cut to this in the transcript the summariser reads. */
const RESULT_CHARS = 2_000;
export const COMPACTION_SUMMARY_HEADER =
  '[Summary of the earlier part of this session, written when it was compacted]';

export const SUMMARIZATION_PROMPT = `You compress the history of a coding agent's session so it can continue \
within its context window. Write a summary another engineer could pick the work up from:
- the user's requests, quoted exactly;
- what has been done: files read, created or changed (with paths), commands run and their outcome;
- decisions taken and facts learned about the code;
- what remains to do, and any error still unresolved.
Be specific and brief. Do not invent anything that is not in the transcript.`;

/**
 * Where the kept tail starts: the most recent turns that fit `keepTokens`, never starting on tool results
 * (they must follow the call that asked for them). 0 means there is nothing older to compact. Pure.
 */
export function compactionSplit(turns: readonly Turn[], keepTokens: number): number {
  let start = turns.length;
  let kept = 0;
  while (start > 0) {
    const cost = estimateTokens(turnChars(turns[start - 1]!));
    if (kept + cost > keepTokens) break;
    kept += cost;
    start -= 1;
  }
  while (start < turns.length && turns[start]!.kind === 'tool_results') start += 1;
  return start;
}

/** The older turns as plain text for the summariser, long tool results cut. Pure. */
export function renderTranscript(turns: readonly Turn[]): string {
  const cut = (text: string) =>
    text.length <= RESULT_CHARS
      ? text
      : `${text.slice(0, RESULT_CHARS)}\n[... ${text.length - RESULT_CHARS} characters cut]`;
  const lines: string[] = [];
  for (const turn of turns) {
    if (turn.kind === 'user') lines.push(`USER: ${turn.text}`);
    else if (turn.kind === 'steering') lines.push(`USER (steering): ${turn.text}`);
    else if (turn.kind === 'system') lines.push(turn.text);
    else if (turn.kind === 'assistant') {
      const text = messageText(turn.message);
      if (text) lines.push(`ASSISTANT: ${text}`);
      for (const call of messageToolCalls(turn.message))
        lines.push(`TOOL CALL ${call.toolName} ${call.argumentsJson}`);
    } else {
      for (const r of turn.results)
        lines.push(`TOOL RESULT ${r.toolName}${r.isError ? ' (error)' : ''}: ${cut(r.content)}`);
    }
  }
  return lines.join('\n\n');
}

/**
 * Replaces the older turns with one model-written summary, keeping the recent ones verbatim. Returns false when
 * there is nothing older to summarise (the caller then lets the request fail or warns).
 */
export async function compactHistory(
  rt: SessionRuntime,
  signal: AbortSignal,
  options: { afterOverflow?: boolean } = {},
): Promise<boolean> {
  // After the provider refused the request, our estimate of the window was wrong: keep much less.
  const keep = options.afterOverflow
    ? Math.floor(historyTokens(rt.history) * AFTER_OVERFLOW_KEEP_FRACTION)
    : Math.floor(rt.contextWindow.size * KEEP_FRACTION);
  const split = compactionSplit(rt.history, keep);
  if (split === 0) return false;
  const older = rt.history.slice(0, split);
  const tokensBefore = historyTokens(rt.history);
  let transcript = renderTranscript(older);
  // The summariser's own request must fit too: keep the transcript's head and tail.
  const maxChars = Math.floor(rt.contextWindow.size * 0.6) * 4;
  if (transcript.length > maxChars) {
    const half = Math.floor(maxChars / 2);
    transcript = `${transcript.slice(0, half)}\n[... middle of the transcript cut ...]\n${transcript.slice(-half)}`;
  }
  const startedAt = Date.now();
  const response = await rt.client.complete(
    {
      model: rt.model,
      provider: rt.profile.providerName,
      systemPrompt: SUMMARIZATION_PROMPT,
      messages: [Message.user(`Summarise this session transcript:\n\n${transcript}`)],
    },
    { signal },
  );
  rt.recordUsage(response, 'compaction', undefined, startedAt);
  rt.history = [Turns.system(`${COMPACTION_SUMMARY_HEADER}\n\n${response.text}`), ...rt.history.slice(split)];
  rt.contextWindow.reset();
  rt.emit(AgentEventKind.COMPACTION, {
    removed_turns: split,
    tokens_before: tokensBefore,
    tokens_after: historyTokens(rt.history),
  });
  return true;
}
