import { estimateCost, type TokenUsage } from '../../llm/index.js';
import { AttractorError } from '../../shared/errors.js';
import { addCall, emptyTotals, formatUsd, type UsageTotals } from './usage-totals.js';

export interface LedgerOptions {
  /** Stop the run once its cost exceeds this many USD (`max_cost_usd`, `--max-cost`). */
  maxCostUsd?: number;
  /** Totals of the run before this process (from the checkpoint, on resume). */
  initial?: UsageTotals;
}

export interface RecordedCall {
  nodeId?: string;
  model: string;
  usage: TokenUsage;
}

/**
 * Every model call of a run, summed per node visit and for the run, against an optional budget. Crossing
 * the budget aborts `budgetSignal`; the engine then stops the running node, checkpoints and pauses the run.
 *
 * @example
 * const ledger = new UsageLedger({ maxCostUsd: 2 });
 * ledger.record({ nodeId: 'plan', model: 'claude-sonnet-4-6', usage });
 */
export class UsageLedger {
  readonly maxCostUsd: number | undefined;
  private run: UsageTotals;
  private readonly nodes = new Map<string, UsageTotals>();
  private readonly budget = new AbortController();

  constructor(options: LedgerOptions = {}) {
    this.maxCostUsd = options.maxCostUsd;
    this.run = options.initial ? { ...options.initial } : emptyTotals();
  }

  get budgetSignal(): AbortSignal {
    return this.budget.signal;
  }

  /** True when the run had spent its budget before this process started (a resume without more budget). */
  get overBudget(): boolean {
    return this.maxCostUsd !== undefined && this.run.cost_usd >= this.maxCostUsd;
  }

  /** A node visit starts: its totals start from zero (the previous visit's stay in its status.json). */
  startVisit(nodeId: string): void {
    this.nodes.set(nodeId, emptyTotals());
  }

  /** Adds one call; returns its cost (undefined when the model has no catalog price). */
  record(call: RecordedCall): number | undefined {
    const cost = estimateCost(call.model, call.usage);
    this.run = addCall(this.run, call.usage, cost);
    if (call.nodeId !== undefined) {
      this.nodes.set(call.nodeId, addCall(this.nodes.get(call.nodeId) ?? emptyTotals(), call.usage, cost));
    }
    if (this.maxCostUsd !== undefined && this.run.cost_usd > this.maxCostUsd && !this.budget.signal.aborted) {
      this.budget.abort(
        new AttractorError(
          'BUDGET_EXCEEDED',
          `the run cost ${formatUsd(this.run.cost_usd)}, over its budget of ${formatUsd(this.maxCostUsd)}`,
        ),
      );
    }
    return cost;
  }

  runTotals(): UsageTotals {
    return { ...this.run };
  }

  nodeTotals(nodeId: string): UsageTotals | undefined {
    const totals = this.nodes.get(nodeId);
    return totals ? { ...totals } : undefined;
  }
}
