import { AttractorError } from '../../shared/errors.js';

/** The file a tool named does not exist; its message is `Error: file not found: {path}`. */
export class FileNotFoundError extends AttractorError {
  readonly path: string;

  constructor(path: string, options: { cause?: unknown } = {}) {
    super('agent.file_not_found', `Error: file not found: ${path}`, options);
    this.name = 'FileNotFoundError';
    this.path = path;
  }

  static is(value: unknown): value is FileNotFoundError {
    return AttractorError.isInstance(value) && value.code === 'agent.file_not_found';
  }
}
