/**
 * An SDK client built at the first call, so that loading an adapter never loads its SDK, and kept for the
 * calls after, except when building it failed: a key or URL set before the next call must be seen then.
 */
export class LazySdk<Client> {
  readonly #build: () => Promise<Client>;
  #client: Promise<Client> | undefined;

  constructor(build: () => Promise<Client>) {
    this.#build = build;
  }

  get(): Promise<Client> {
    if (this.#client) return this.#client;
    const client = this.#build();
    this.#client = client;
    client.catch(() => {
      if (this.#client === client) this.#client = undefined;
    });
    return client;
  }

  /** Forgets the client; the next call builds a new one. */
  reset(): void {
    this.#client = undefined;
  }
}
