import { AttractorError } from '../shared/errors.js';

/** A `status.json` written by an external agent that is not valid JSON or not the status-file shape. */
export class StatusFileError extends AttractorError {
  readonly path: string;

  constructor(path: string, detail: string, options: { cause?: unknown } = {}) {
    super('STATUS_FILE_INVALID', `${path}: invalid status.json: ${detail}`, options);
    this.name = 'StatusFileError';
    this.path = path;
  }
}
