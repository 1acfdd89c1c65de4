import { describe, expect, expectTypeOf, it } from 'vitest';
import { type AgentEvent, AgentEventKind, agentEvent } from '../../../src/agent/session/agent-event.js';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

describe('AgentEvent', () => {
  it('is told apart by kind: a kind narrows data to its own fields', () => {
    const event: AgentEvent = agentEvent('s1', AgentEventKind.USAGE, { usage, cost_usd: 0.5, phase: 'turn' });
    if (event.kind !== AgentEventKind.USAGE) throw new Error('a usage event');
    expect(event.data.cost_usd).toBe(0.5);
    expectTypeOf(event.data.usage).toEqualTypeOf<
      | {
          inputTokens: number;
          outputTokens: number;
          totalTokens: number;
          reasoningTokens?: number | undefined;
          cacheReadTokens?: number | undefined;
          cacheWriteTokens?: number | undefined;
          raw?: Record<string, unknown> | undefined;
        }
      | undefined
    >();
    // @ts-expect-error -- `cost_us` is no field of a usage event's data (it is `cost_usd`).
    expect(event.data.cost_us).toBeUndefined();
  });

  it('checks what is emitted against the kind', () => {
    // @ts-expect-error -- an error event must say its error.
    const missing = agentEvent('s1', AgentEventKind.ERROR, { phase: 'turn' });
    expect(missing.kind).toBe('error');
    // @ts-expect-error -- `txt` is no field of assistant_text_end.
    const misspelt = agentEvent('s1', AgentEventKind.ASSISTANT_TEXT_END, { text: 'hi', txt: 'hi' });
    expect(misspelt.timestamp).toMatch(/^\d{4}-/);
  });
});
