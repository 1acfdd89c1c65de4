import { AttractorError } from '../shared/errors.js';
import { recording } from './run-recorder.js';

/** The first write the run could not make: it stops the run, and `result` rejects with it. */
export class LateFailure {
  error: AttractorError | undefined;
  #stop: (() => void) | undefined;

  report(error: unknown): void {
    if (this.error) return;
    const what = error instanceof AttractorError ? error.message.replace(/\.$/, '') : String(error);
    this.error = new AttractorError('RUN_OUTPUT_FAILED', `${what}; the run was stopped.`, { cause: error });
    // Not from inside a listener: the actor may be in the middle of a transition.
    queueMicrotask(() => this.#stop?.());
  }

  /**
   * Make a record (or call a listener), reporting what fails instead of throwing: a listener that throws
   * must not surface as an uncaught exception from inside XState while the run goes on without its record.
   */
  guard(what: string, write: () => void): boolean {
    try {
      recording(what, write);
      return true;
    } catch (error) {
      this.report(error);
      return false;
    }
  }

  onStop(stop: () => void): void {
    this.#stop = stop;
  }
}
