import * as z from 'zod';
import { eventData } from './event-data-object.js';

/**
 * What a run's notifications (`--notify`, decision 0520) add to its stream: only a webhook that was not
 * delivered after its last attempt. Appended by whichever process gave up, possibly after the run ended.
 */
export const notificationEventSchemas = {
  'notification.failed': eventData({
    /** The notification's kind: `gate.waiting`, `gate.answered` or `run.finished`. */
    notification: z.string(),
    /** Its delivery id (`x-attractor-delivery`), the same on every attempt. */
    delivery: z.string(),
    /** The receiver's origin only: a webhook URL's path is often its secret (Slack's are). */
    receiver: z.string(),
    attempts: z.number(),
    /** Why the last attempt failed. */
    error: z.string(),
  }),
} as const;
