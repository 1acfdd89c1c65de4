import { LLMError, type Response, type ToolCallPart } from '../../llm/index.js';
import { AttractorError } from '../../shared/errors.js';
import type { AgentToolResult } from '../tools/define-tool.js';
import { AgentEventKind } from './agent-event.js';
import { compactHistory } from './compact-history.js';
import { executeToolRound, RunningToolCall } from './execute-tool-round.js';
import { loopWarningText } from './loop-detector.js';
import {
  continueAfterCut,
  cutToolCall,
  cutToolCallResult,
  MAX_CONSECUTIVE_TRUNCATIONS,
  stoppedToolCallResult,
  withoutCutArguments,
} from './output-truncation.js';
import type { ProcessInputResult } from './session-lifecycle-machine.js';
import type { SessionRuntime } from './session-runtime.js';
import { estimateNextInput, ModelTurn } from './stream-model-turn.js';
import { type ToolResultsTurn, Turns } from './turn.js';

/** Errors after which the session cannot do anything useful, so it closes. */
const CLOSING_ERROR_CODES = new Set(['llm.authentication', 'llm.permission_denied', 'llm.configuration']);

/**
 * Processes one input, then each queued follow-up, then reports PROCESSING_END.
 * Never throws: failures are ERROR events; the result says whether the session must close.
 */
export async function processInputs(
  rt: SessionRuntime,
  first: string,
  signal: AbortSignal,
): Promise<ProcessInputResult> {
  let input: string | undefined = first;
  while (input !== undefined) {
    if ((await processInput(rt, input, signal)) === 'close') return { close: true };
    input = rt.takeFollowUp();
  }
  rt.emit(AgentEventKind.PROCESSING_END, {});
  return { close: false };
}

type InputEnd = 'done' | 'close';

async function processInput(rt: SessionRuntime, text: string, signal: AbortSignal): Promise<InputEnd> {
  rt.emit(AgentEventKind.USER_INPUT, { text });
  rt.history.push(Turns.user(text));
  injectSteering(rt);
  let rounds = 0;
  let compactedForOverflow = false;
  let cutsInARow = 0;
  for (;;) {
    if (signal.aborted) return 'close';
    const roundLimit = rt.config.maxToolRoundsPerInput;
    if (roundLimit > 0 && rounds >= roundLimit) {
      rt.emit(AgentEventKind.TURN_LIMIT, { turns: rounds, limit: roundLimit, kind: 'tool_rounds' });
      return 'done';
    }
    if (rt.config.maxTurns > 0 && rt.turnCount >= rt.config.maxTurns) {
      rt.emit(AgentEventKind.TURN_LIMIT, { turns: rt.turnCount, limit: rt.config.maxTurns, kind: 'turns' });
      return 'done';
    }
    let phase = 'compaction';
    let modelCallStartedAt = Date.now();
    let response: Response;
    let maxTokens: number;
    try {
      if (rt.config.enableCompaction && wouldOverflow(rt)) await compactHistory(rt, signal);
      phase = 'llm';
      modelCallStartedAt = Date.now();
      const turn = new ModelTurn(rt, signal);
      maxTokens = turn.maxTokens;
      await turn.done;
      response = turn.finish();
    } catch (error) {
      if (signal.aborted) return 'close';
      const overflow = LLMError.isLLMError(error) && error.code === 'llm.context_length';
      if (overflow && rt.config.enableCompaction && !compactedForOverflow) {
        compactedForOverflow = true;
        if (await compactHistory(rt, signal, { afterOverflow: true }).catch(() => false)) continue;
      }
      reportError(rt, error, phase);
      return isClosing(error) ? 'close' : 'done';
    }
    compactedForOverflow = false;
    rt.turnCount += 1;
    // One clock reading for what happens in this synchronous step: USAGE, the turn, the tool calls' starts.
    const now = Date.now();
    rt.recordUsage(response, 'turn', now, modelCallStartedAt);
    // A `length` finish: the answer stopped at the output limit, maybe in the middle of a tool call.
    const cutOff = response.finishReason.reason === 'length';
    const cut = cutToolCall(response);
    cutsInARow = cutOff ? cutsInARow + 1 : 0;
    const message = cut ? withoutCutArguments(response.message, cut) : response.message;
    rt.history.push(Turns.assistant(message, response.usage, response.id, now));
    rt.contextWindow.observe(response.usage, rt.history.length);
    if (rt.contextWindow.shouldWarn()) {
      const fraction = rt.contextWindow.usageFraction();
      rt.emit(AgentEventKind.CONTEXT_WINDOW_WARNING, {
        usage_fraction: fraction,
        threshold: rt.contextWindow.warningThreshold,
        message: `Context usage at ~${Math.round(fraction * 100)}% of context window`,
      });
    }
    if (cutOff) {
      reportCut(rt, maxTokens, cut);
      if (cutsInARow >= MAX_CONSECUTIVE_TRUNCATIONS) {
        // Every call of the answer gets a result, so the history stays valid for a later input.
        if (response.toolCalls.length > 0) {
          rt.history.push(Turns.toolResults(response.toolCalls.map((call) => stoppedToolCallResult(call))));
        }
        rt.emit(AgentEventKind.ERROR, {
          error: `The model's answer was cut off at its limit of ${maxTokens} output tokens ${cutsInARow} times in a row; raise max_tokens or ask for smaller steps.`,
          code: 'agent.output_limit',
          phase: 'llm',
        });
        return 'done';
      }
    }
    if (response.toolCalls.length === 0) {
      if (!cutOff) return 'done';
      rt.history.push(Turns.steering(continueAfterCut(maxTokens)));
      continue;
    }
    rounds += 1;
    // The cut call is never run: its arguments are incomplete. The calls before it were finished.
    const calls = cut ? response.toolCalls.filter((call) => call !== cut) : response.toolCalls;
    let results: ToolResultsTurn;
    if (calls.length === 0) results = Turns.toolResults([], now);
    else {
      const round = executeToolRound(rt, calls, signal, now);
      // A running one-call round is awaited here, on the tool's own promise: one job per round between the
      // model's answer and the tool's result (a helper awaiting it would add its own).
      if (round instanceof RunningToolCall) {
        let answer: AgentToolResult | undefined;
        let failure: unknown;
        let ok = true;
        try {
          answer = await round.running;
        } catch (error) {
          ok = false;
          failure = error;
        }
        results = ok ? round.end(answer!) : round.fail(failure);
      } else results = round instanceof Promise ? await round : round;
    }
    if (cut) results.results.push(cutToolCallResult(cut, maxTokens));
    rt.history.push(results);
    if (signal.aborted) return 'close';
    injectSteering(rt);
    if (rt.config.enableLoopDetection) detectLoop(rt, calls);
  }
}

/** Whether the next request would not fit under the compaction threshold of the context window. */
function wouldOverflow(rt: SessionRuntime): boolean {
  return estimateNextInput(rt) > rt.contextWindow.size * rt.config.compactionThreshold;
}

/** OUTPUT_TRUNCATED: what was cut off and what the model is asked to do about it. */
function reportCut(rt: SessionRuntime, maxTokens: number, cut: ToolCallPart | undefined): void {
  rt.emit(AgentEventKind.OUTPUT_TRUNCATED, {
    max_tokens: maxTokens,
    ...(cut ? { tool_name: cut.toolName, tool_call_id: cut.toolCallId } : {}),
    message: cut
      ? `output cut off at ${maxTokens} tokens inside a ${cut.toolName} call: not run, the agent was asked to continue in smaller steps`
      : `output cut off at ${maxTokens} tokens: the agent was asked to continue`,
  });
}

function injectSteering(rt: SessionRuntime): void {
  for (const text of rt.takeSteering()) {
    rt.history.push(Turns.steering(text));
    rt.emit(AgentEventKind.STEERING_INJECTED, { text });
  }
}

function detectLoop(rt: SessionRuntime, calls: readonly ToolCallPart[]): void {
  for (const call of calls) {
    const found = rt.loopDetector.record(call.toolName, call.arguments);
    if (!found) continue;
    const warning = loopWarningText(found.window);
    rt.history.push(Turns.steering(warning));
    rt.emit(AgentEventKind.LOOP_DETECTION, {
      pattern: found.pattern,
      window: found.window,
      message: warning,
    });
  }
}

function isClosing(error: unknown): boolean {
  return AttractorError.isInstance(error) && CLOSING_ERROR_CODES.has(error.code);
}

function reportError(rt: SessionRuntime, error: unknown, phase: string): void {
  rt.emit(AgentEventKind.ERROR, {
    error: error instanceof Error ? error.message : String(error),
    phase,
    ...(AttractorError.isInstance(error) ? { code: error.code } : {}),
    ...(LLMError.isLLMError(error) && error.provider !== undefined ? { provider: error.provider } : {}),
  });
}
