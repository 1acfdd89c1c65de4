import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageLedger } from '../../src/actors/codergen/usage-ledger.js';
import type { CodergenBackend } from '../../src/actors/codergen-backend.js';
import { resumePipeline } from '../../src/run/engine.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { eventOf, runDot } from '../helpers/run-helpers.js';

const DOT = `digraph budget { start [shape=Mdiamond]; exit [shape=Msquare];
  a [prompt="first"]; b [prompt="second"]; start -> a -> b -> exit; }`;

/** Each visit costs one million input tokens of claude-sonnet-4-6 ($3 at catalog prices). */
function spendingBackend(ledger: UsageLedger, hangAfterSpending: Set<string>): CodergenBackend {
  return {
    name: 'spending',
    async run(request) {
      ledger.startVisit(request.node.id);
      ledger.record({
        nodeId: request.node.id,
        model: 'claude-sonnet-4-6',
        usage: { inputTokens: 1_000_000, outputTokens: 0, totalTokens: 1_000_000 },
      });
      if (hangAfterSpending.has(request.node.id)) {
        await new Promise((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
        });
      }
      return { response: `done ${request.node.id}`, usage: ledger.nodeTotals(request.node.id) ?? {} };
    },
  };
}

describe('run accounting', () => {
  it('puts node totals into node.complete and status.json, run totals into the checkpoint and finalize', async () => {
    const ledger = new UsageLedger();
    const run = await runDot(DOT, { backend: spendingBackend(ledger, new Set()), accounting: ledger });
    expect(run.result.status).toBe('completed');
    const complete = eventOf(run.events, 'node.complete', 'a');
    expect(complete?.data.usage).toMatchObject({ calls: 1, input_tokens: 1_000_000, cost_usd: 3 });
    const status = JSON.parse(readFileSync(join(run.result.runDir, 'a', 'status.json'), 'utf8'));
    expect(status.usage).toMatchObject({ calls: 1, cost_usd: 3 });
    const finalize = run.events.find((e) => e.kind === 'pipeline.finalize')!;
    expect(finalize.data['usage']).toMatchObject({ calls: 2, cost_usd: 6 });
    const checkpoint = JSON.parse(readFileSync(join(run.result.runDir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.usage).toMatchObject({ calls: 2, cost_usd: 6 });
  });

  it('a spent budget aborts the running node, checkpoints it and pauses; a resume with more budget finishes', async () => {
    const ledger = new UsageLedger({ maxCostUsd: 5 });
    const run = await runDot(DOT, {
      backend: spendingBackend(ledger, new Set(['b'])),
      accounting: ledger,
    });
    expect(run.result.status).toBe('paused');
    expect(run.result.budgetExceeded).toContain('over its budget of $5.00');
    expect(run.result.stoppedAt).toBe('b');
    expect(run.kinds).toContain('pipeline.paused');
    expect(run.kinds).not.toContain('pipeline.cancelled');
    const checkpoint = JSON.parse(readFileSync(join(run.result.runDir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint).toMatchObject({ status: 'paused', current_node: 'b', usage: { cost_usd: 6 } });
    expect(checkpoint.failure).toBeUndefined();

    const resumed = new UsageLedger({ maxCostUsd: 20, initial: checkpoint.usage });
    const events: PipelineEvent[] = [];
    const second = await resumePipeline({
      from: run.result.runDir,
      durable: false,
      backend: spendingBackend(resumed, new Set()),
      accounting: resumed,
      onEvent: (e) => events.push(e),
    }).result;
    expect(second.status).toBe('completed');
    expect(events.filter((e) => e.kind === 'node.start').map((e) => e.node_id)).toEqual(['b', 'exit']);
    expect(second.usage).toMatchObject({ calls: 3, cost_usd: 9 });
  });
});
