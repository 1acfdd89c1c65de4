import { createTelemetry, type Telemetry } from '../telemetry/telemetry.js';
import { resolveTelemetrySettings, type TelemetryFlags } from '../telemetry/telemetry-settings.js';
import type { CliContext } from './cli-context.js';

/**
 * The command's trace export when the user configured one (`--otel`, OTEL_EXPORTER_OTLP_*); dry and
 * scenario runs included — telemetry the user set up is not the external work a dry run avoids.
 */
export function cliTelemetry(flags: TelemetryFlags, ctx: CliContext): Telemetry | undefined {
  const settings = resolveTelemetrySettings(flags, ctx.io.env);
  if (settings === undefined) return undefined;
  return createTelemetry({
    ...settings,
    onExportError: (message) => ctx.io.stderr(`attractor: ${message}\n`),
  });
}
