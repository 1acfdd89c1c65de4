import type { TokenUsage } from '../../llm/index.js';
import type { Turn } from './turn.js';

/** A rough token estimate: four characters a token. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Characters a turn adds to a request (text, arguments, results, thinking). */
export function turnChars(turn: Turn): number {
  switch (turn.kind) {
    case 'user':
    case 'system':
    case 'steering':
      return turn.text.length;
    case 'tool_results': {
      let chars = 0;
      for (const result of turn.results) chars += result.content.length + result.toolName.length;
      return chars;
    }
    case 'assistant': {
      let chars = 0;
      for (const part of turn.message.content) {
        if (part.kind === 'text' || part.kind === 'thinking') chars += part.text.length;
        else if (part.kind === 'tool_call') chars += part.toolName.length + part.argumentsJson.length;
      }
      return chars;
    }
  }
}

export function historyTokens(turns: readonly Turn[], from = 0): number {
  let chars = 0;
  for (let i = from; i < turns.length; i++) chars += turnChars(turns[i]!);
  return estimateTokens(chars);
}

/**
 * Tracks how full the context window is from the provider's real usage numbers (the last call's input plus
 * output tokens is what the next request starts from), estimating only the turns added since. Pure state, no I/O.
 */
export class ContextWindowTracker {
  readonly size: number;
  readonly warningThreshold: number;
  private lastTokens: number | undefined;
  /** History length when lastTokens was measured: later turns are estimated. */
  private measuredTurns = 0;
  private warned = false;

  constructor(size: number, warningThreshold: number) {
    this.size = size;
    this.warningThreshold = warningThreshold;
  }

  /** After a model call whose assistant turn is the last of `history`. */
  observe(usage: TokenUsage, historyLength: number): void {
    this.lastTokens = usage.inputTokens + usage.outputTokens;
    this.measuredTurns = historyLength;
  }

  /** Tokens the next request will carry: measured, plus an estimate for what was appended after. */
  estimateNext<C>(history: readonly Turn[], fixedChars: (context: C) => number, context: C): number {
    const { measured, estimated } = this.estimateNextParts(history, fixedChars, context);
    return measured + estimated;
  }

  /** {@link estimateNext} in its two parts: what the provider counted, and what is guessed at four characters a token. */
  estimateNextParts<C>(
    history: readonly Turn[],
    fixedChars: (context: C) => number,
    context: C,
  ): { measured: number; estimated: number } {
    if (this.lastTokens === undefined || this.measuredTurns > history.length) {
      // Only without a measurement: the system prompt and tool schemas are otherwise inside lastTokens.
      return { measured: 0, estimated: estimateTokens(fixedChars(context)) + historyTokens(history) };
    }
    return { measured: this.lastTokens, estimated: historyTokens(history, this.measuredTurns) };
  }

  /** The fraction used by the last measured call, 0 before any. */
  usageFraction(): number {
    return this.lastTokens === undefined ? 0 : this.lastTokens / this.size;
  }

  /** True once each time usage crosses the threshold (again after a compaction). */
  shouldWarn(): boolean {
    if (this.warned || this.usageFraction() < this.warningThreshold) return false;
    this.warned = true;
    return true;
  }

  /** The history was rewritten: forget the measurement, estimate again until the next call. */
  reset(): void {
    this.lastTokens = undefined;
    this.measuredTurns = 0;
    this.warned = false;
  }
}
