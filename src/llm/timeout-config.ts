import type { TimeoutConfig } from './types.js';

/** The adapter defaults (docs/decisions/0032-llm-tool-names-and-retryable-errors.md): connect 10 s, request 120 s, stream read 30 s. */
export const DEFAULT_TIMEOUTS: Readonly<TimeoutConfig> = Object.freeze({
  connectMs: 10_000,
  requestMs: 120_000,
  streamReadMs: 30_000,
});

/** The defaults overridden by each layer in turn (adapter, client, call); undefined fields do not override. */
export function resolveTimeouts(...layers: Array<Partial<TimeoutConfig> | undefined>): TimeoutConfig {
  const resolved: TimeoutConfig = { ...DEFAULT_TIMEOUTS };
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.connectMs !== undefined) resolved.connectMs = layer.connectMs;
    if (layer.requestMs !== undefined) resolved.requestMs = layer.requestMs;
    if (layer.streamReadMs !== undefined) resolved.streamReadMs = layer.streamReadMs;
  }
  return resolved;
}

/** An adapter's legacy single `timeoutMs` (no response, or no next event, within it) as a layer. */
function legacyTimeout(timeoutMs: number | undefined): Partial<TimeoutConfig> | undefined {
  return timeoutMs === undefined ? undefined : { requestMs: timeoutMs, streamReadMs: timeoutMs };
}

/** A provider call's limits: the defaults, then the adapter's (its legacy `timeoutMs` first), then the call's. */
export function callTimeouts(
  adapter: { timeoutMs?: number; timeouts?: Partial<TimeoutConfig> | undefined },
  call: { timeouts?: Partial<TimeoutConfig> | undefined },
): TimeoutConfig {
  return resolveTimeouts(legacyTimeout(adapter.timeoutMs), adapter.timeouts, call.timeouts);
}
