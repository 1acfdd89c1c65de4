/** What a sign-in in progress keeps until the provider sends the browser back. */
export interface PendingSignIn {
  verifier: string;
  /** Where the person was when asked to sign in (`safeReturnPath`), kept here, never in the URL. */
  returnTo: string;
}

export interface PendingSignInsOptions {
  /** How long a sign-in may take at the provider. */
  ttlMs: number;
  /** The most sign-ins kept at once: `/signin` is public, so its memory has a bound. */
  capacity: number;
}

/**
 * The sign-ins a server has started and not yet seen come back, by their OIDC `state`. Anyone may ask
 * `/signin`; a flood of them expires or pushes out the oldest (a person whose sign-in was pushed out
 * signs in again) and never grows the server's memory past `capacity` entries.
 */
export class PendingSignIns {
  readonly #options: PendingSignInsOptions;
  readonly #entries = new Map<string, PendingSignIn & { until: number }>();

  constructor(options: PendingSignInsOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#entries.size;
  }

  add(state: string, pending: PendingSignIn, now = Date.now()): void {
    // A Map iterates in insertion order: the first entries are the oldest.
    for (const [key, entry] of this.#entries) {
      if (entry.until > now && this.#entries.size < this.#options.capacity) break;
      this.#entries.delete(key);
    }
    this.#entries.set(state, { ...pending, until: now + this.#options.ttlMs });
  }

  /** The sign-in `state` started, once: a second callback with the same state finds nothing. */
  take(state: string, now = Date.now()): PendingSignIn | undefined {
    const entry = this.#entries.get(state);
    this.#entries.delete(state);
    if (!entry || entry.until <= now) return undefined;
    return { verifier: entry.verifier, returnTo: entry.returnTo };
  }
}
