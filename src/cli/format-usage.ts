/** What a node visit or a run spent, as `usage` in events: the fields a line shows. */
interface ShownUsage {
  calls: number;
  total_tokens: number;
  cost_usd: number;
  unpriced_calls: number;
}

/** Usage totals as events and results carry them (`usageTotals`): open to new counters. */
type UsageTotals = Readonly<Record<string, unknown>> | undefined;

function shownUsage(u: UsageTotals): ShownUsage | undefined {
  if (u === undefined) return undefined;
  const num = (key: string): number => {
    const value = u[key];
    return typeof value === 'number' ? value : 0;
  };
  if (num('calls') <= 0) return undefined;
  return {
    calls: num('calls'),
    total_tokens: num('total_tokens'),
    cost_usd: num('cost_usd'),
    unpriced_calls: num('unpriced_calls'),
  };
}

const usd = (value: number): string => `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;

/** `12,345 tokens, $0.0123` (`cost unknown` when no call had a catalog price); undefined: no model calls. */
export function formatUsage(value: UsageTotals): string | undefined {
  const usage = shownUsage(value);
  if (!usage) return undefined;
  const cost =
    usage.unpriced_calls === usage.calls
      ? 'cost unknown'
      : `${usd(usage.cost_usd)}${usage.unpriced_calls > 0 ? ` + ${usage.unpriced_calls} unpriced calls` : ''}`;
  return `${usage.total_tokens.toLocaleString('en-US')} tokens, ${cost}`;
}

/** A real run's last line: `Cost: $0.0123 — 12,345 tokens in 3 model calls (claude-sonnet-4-6)`. */
export function formatRunCost(value: UsageTotals, models: readonly string[]): string | undefined {
  const usage = shownUsage(value);
  const spent = formatUsage(value);
  if (!usage || !spent) return undefined;
  const [tokens, cost] = [spent.slice(0, spent.indexOf(', ')), spent.slice(spent.indexOf(', ') + 2)];
  const calls = `${usage.calls} model call${usage.calls === 1 ? '' : 's'}`;
  return `Cost: ${cost} — ${tokens} in ${calls}${models.length > 0 ? ` (${models.join(', ')})` : ''}`;
}
