import path from 'node:path';
import { deliverWebhook } from './deliver-webhook.js';
import { FileOutbox } from './file-outbox.js';
import type { NotifySettings } from './notify-settings.js';
import { RunNotifier } from './run-notifier.js';

export interface OpenedNotifier {
  notifier: RunNotifier;
  close(): Promise<void>;
}

/**
 * The notifications of a process that executes runs: a `RunNotifier` feeding an outbox in its data
 * folder (`<data dir>/notifications/`), whose pending deliveries an earlier process left are sent first.
 * A delivery that failed its last attempt is said once on stderr.
 */
export function openNotifier(settings: NotifySettings, dataDir: string, linkBase: string): OpenedNotifier {
  const outbox = new FileOutbox({
    dir: path.join(dataDir, 'notifications'),
    deliver: (delivery) => deliverWebhook(delivery, settings.secret),
    onFailed: (delivery, error) =>
      process.stderr.write(
        `attractor: a notification (${delivery.id}) to ${delivery.url} was not delivered after its last attempt: ${error}\n`,
      ),
  });
  outbox.start();
  return {
    notifier: new RunNotifier({
      urls: settings.urls,
      format: settings.format,
      linkBase: settings.publicUrl ?? linkBase,
      queue: outbox,
    }),
    close: () => outbox.close(),
  };
}
