const DURATION = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h|d)?$/i;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Milliseconds of a DOT duration: `250ms`, `900s`, `1.5s`, `15m`, `2h`, `1d`; a bare number is seconds
 * ("timeout: maximum execution time in seconds"). Undefined when not a duration.
 */
export function parseDurationMs(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  return Math.round(amount * UNIT_MS[unit]!);
}
