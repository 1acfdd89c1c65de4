import type { Telemetry } from '../telemetry/telemetry.js';
import { resolveTelemetrySettings, type TelemetryFlags } from '../telemetry/telemetry-settings.js';
import type { CliContext } from './cli-context.js';

/**
 * The command's trace export when the user configured one (`--otel`, OTEL_EXPORTER_OTLP_*); dry and
 * scenario runs included — telemetry the user set up is not the external work a dry run avoids. The
 * OpenTelemetry SDK is loaded only then: it takes most of a second.
 */
export async function cliTelemetry(flags: TelemetryFlags, ctx: CliContext): Promise<Telemetry | undefined> {
  const settings = resolveTelemetrySettings(flags, ctx.io.env);
  if (settings === undefined) return undefined;
  const { createTelemetry } = await import('../telemetry/telemetry.js');
  return createTelemetry({
    ...settings,
    onExportError: (message) => ctx.io.stderr(`attractor: ${message}\n`),
  });
}
