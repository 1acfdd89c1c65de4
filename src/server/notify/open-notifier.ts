import path from 'node:path';
import { deliverWebhook } from './deliver-webhook.js';
import { type RecordDeliveryFailed, reportDeliveryFailed } from './delivery-failed.js';
import { FileOutbox } from './file-outbox.js';
import type { NotifySettings } from './notify-settings.js';
import { type DeliveryQueue, RunNotifier } from './run-notifier.js';

export interface OpenedNotifier {
  notifier: RunNotifier;
  close(): Promise<void>;
}

/** The notifier `settings` describe, queueing on `queue`; links go to `--public-url` or `linkBase`. */
export function runNotifierFor(
  settings: NotifySettings,
  linkBase: string,
  queue: DeliveryQueue,
): RunNotifier {
  return new RunNotifier({
    urls: settings.urls,
    secret: settings.secret,
    format: settings.format,
    linkBase: settings.publicUrl ?? linkBase,
    queue,
  });
}

/**
 * The notifications of a server without a database: a `RunNotifier` feeding an outbox in its data folder
 * (`<data dir>/notifications/`), whose pending deliveries an earlier process left are sent first. A
 * delivery that failed its last attempt is said once on stderr and `record`ed in its run's events.
 */
export function openFileNotifier(
  settings: NotifySettings,
  dataDir: string,
  linkBase: string,
  record: RecordDeliveryFailed,
): OpenedNotifier {
  const outbox = new FileOutbox({
    dir: path.join(dataDir, 'notifications'),
    deliver: deliverWebhook,
    onFailed: (failed) => void reportDeliveryFailed(failed, record),
    ...(settings.policy ? { policy: settings.policy } : {}),
  });
  outbox.start();
  return { notifier: runNotifierFor(settings, linkBase, outbox), close: () => outbox.close() };
}
