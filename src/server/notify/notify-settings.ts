import type { DeliveryPolicy } from './delivery-policy.js';
import type { NotifyFormat } from './webhook-body.js';

/** Where a server or worker sends notifications (`--notify`), signed with what, shaped how. */
export interface NotifySettings {
  urls: readonly string[];
  /** The shared secret every body is signed with (`--notify-secret-file`). */
  secret: string;
  format: NotifyFormat;
  /** The web view's address for links (`--public-url`); default: the server's own. */
  publicUrl?: string;
  /** Attempts and backoff (tests shorten them); absent: six attempts from 1 s to 5 minutes apart. */
  policy?: DeliveryPolicy;
}
