import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { PipelineEvent } from '../shared/pipeline-event.js';

export interface AsideEventsOptions {
  /** Whether run `id` executes in this process now: its log is then its recorder's alone. */
  isLive: (id: string) => boolean;
  runDir: (id: string) => string;
  /** An event was appended to run `id`'s log: its readers' hub, if one is open, hears it. */
  appended: (id: string, event: PipelineEvent) => void;
}

/**
 * Events a run of the file store gets from outside its execution (a notification given up, decision
 * 0520), appended to its `events.jsonl` as one line. A run executing here gets them once it stops: its
 * recorder writes the log off the event loop, and a line between its writes would shift the event ids
 * its readers already hold.
 */
export class AsideEvents {
  readonly #options: AsideEventsOptions;
  readonly #held = new Map<string, PipelineEvent[]>();

  constructor(options: AsideEventsOptions) {
    this.#options = options;
  }

  record(id: string, event: PipelineEvent): void {
    if (!this.#options.isLive(id)) {
      this.#append(id, event);
      return;
    }
    this.#held.set(id, [...(this.#held.get(id) ?? []), event]);
  }

  /** Run `id` stopped executing here: what it was given meanwhile goes to its log now. */
  stopped(id: string): void {
    const held = this.#held.get(id);
    this.#held.delete(id);
    for (const event of held ?? []) this.#append(id, event);
  }

  #append(id: string, event: PipelineEvent): void {
    appendFileSync(path.join(this.#options.runDir(id), 'events.jsonl'), `${JSON.stringify(event)}\n`);
    this.#options.appended(id, event);
  }
}
