import { reportDeliveryFailed } from '../notify/delivery-failed.js';
import type { NotifySettings } from '../notify/notify-settings.js';
import { type OpenedNotifier, runNotifierFor } from '../notify/open-notifier.js';
import { NotificationQueue } from './notification-queue.js';
import type { PostgresRunStore } from './postgres-run-store.js';

/** Webhooks a worker sends at once, beside (never instead of) its runs. */
const DELIVERERS = 2;

export interface OpenedDatabaseNotifier extends OpenedNotifier {
  /** The deliverer's graphile-worker ids: the worker's lease covers them (`RunQueue.work`). */
  workerIds: readonly string[];
}

/**
 * The notifications of a worker on the PostgreSQL store (decision 0520): deliveries are jobs on the
 * database's queue, sent by this worker and every other one with `--notify`; one given up is said on
 * stderr and appended to its run's events in the store.
 */
export async function openDatabaseNotifier(
  settings: NotifySettings,
  url: string,
  store: PostgresRunStore,
): Promise<OpenedDatabaseNotifier> {
  const queue = await NotificationQueue.open(url, {
    ...(settings.policy ? { policy: settings.policy } : {}),
    onFailed: (failed) => reportDeliveryFailed(failed, (id, event) => store.appendEvent(id, event)),
    onError: (error) => process.stderr.write(`attractor: a notification was not queued: ${error.message}\n`),
  });
  let workerIds: readonly string[];
  try {
    workerIds = await queue.deliverHere(DELIVERERS);
  } catch (error) {
    await queue.close();
    throw error;
  }
  return {
    notifier: runNotifierFor(settings, settings.publicUrl ?? '', queue),
    workerIds,
    close: () => queue.close(),
  };
}
