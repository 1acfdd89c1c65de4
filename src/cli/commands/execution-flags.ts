import type { Command } from 'commander';
import { collectRepeated } from '../collect-repeated.js';

/** Flags of the processes that execute runs (`serve`, `worker`): notifications and traces. */
export function addExecutionFlags(command: Command): Command {
  return command
    .option(
      '--notify <url>',
      'POST a signed webhook when a gate waits, is answered, or a run ends (repeatable; with --store, give it to the workers: they queue and send notifications through the database)',
      collectRepeated,
    )
    .option('--notify-secret-file <file>', 'the secret webhooks are signed with (x-attractor-signature)')
    .option('--notify-format <format>', 'json (default) or slack (incoming-webhook blocks)')
    .option('--public-url <url>', "the web view's address, for links in notifications")
    .option('--otel', 'export runs as OpenTelemetry traces (OTLP/HTTP; docs/guides/tracing.md)')
    .option('--otel-content', 'put prompts, responses and tool arguments in the traces (off by default)');
}
