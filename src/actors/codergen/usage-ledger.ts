import { estimateCost, type TokenUsage } from '../../llm/index.js';
import { AttractorError } from '../../shared/errors.js';
import { addCall, emptyTotals, formatUsd, type UsageTotals } from './usage-totals.js';

export interface LedgerOptions {
  /** Stop the run once its cost exceeds this many USD (`max_cost_usd`, `--max-cost`). */
  maxCostUsd?: number;
  /** Totals of the run before this process (from the checkpoint, on resume). */
  initial?: UsageTotals;
}

/** A node visit's own budget (`max_cost_usd` on the node): crossing it aborts `signal`, failing the visit. */
export interface VisitBudget {
  readonly maxCostUsd: number;
  readonly signal: AbortSignal;
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
  private readonly visitBudgets = new Map<string, { maxCostUsd: number; controller: AbortController }>();
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

  /**
   * A node visit starts: its totals start from zero (the previous visit's stay in its status.json). With
   * `maxCostUsd` (the node's `max_cost_usd`), the visit gets its own budget beside the run's.
   */
  startVisit(nodeId: string, maxCostUsd?: number): VisitBudget | undefined {
    this.nodes.set(nodeId, emptyTotals());
    this.visitBudgets.delete(nodeId);
    if (maxCostUsd === undefined || !(maxCostUsd > 0)) return undefined;
    const controller = new AbortController();
    this.visitBudgets.set(nodeId, { maxCostUsd, controller });
    return { maxCostUsd, signal: controller.signal };
  }

  /** Adds one call; returns its cost (undefined when the model has no catalog price). */
  record(call: RecordedCall): number | undefined {
    const cost = estimateCost(call.model, call.usage);
    this.run = addCall(this.run, call.usage, cost);
    if (call.nodeId !== undefined) {
      const node = addCall(this.nodes.get(call.nodeId) ?? emptyTotals(), call.usage, cost);
      this.nodes.set(call.nodeId, node);
      this.checkVisitBudget(call.nodeId, node.cost_usd);
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

  private checkVisitBudget(nodeId: string, spent: number): void {
    const budget = this.visitBudgets.get(nodeId);
    if (!budget || spent <= budget.maxCostUsd || budget.controller.signal.aborted) return;
    budget.controller.abort(
      new AttractorError(
        'NODE_BUDGET_EXCEEDED',
        `node ${nodeId} cost ${formatUsd(spent)}, over its own budget of ${formatUsd(budget.maxCostUsd)} (max_cost_usd)`,
      ),
    );
  }

  runTotals(): UsageTotals {
    return { ...this.run };
  }

  nodeTotals(nodeId: string): UsageTotals | undefined {
    const totals = this.nodes.get(nodeId);
    return totals ? { ...totals } : undefined;
  }
}
