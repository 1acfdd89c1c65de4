import { AttractorError } from '../../shared/errors.js';

/** A tool asked for a path outside the session's working directory (`..`, an absolute path, a symlink out). */
export class PathOutsideWorkdirError extends AttractorError {
  readonly path: string;

  constructor(path: string, workingDirectory: string) {
    super(
      'agent.path_outside_workdir',
      `Error: path is outside the working directory (${workingDirectory}): ${path}`,
    );
    this.name = 'PathOutsideWorkdirError';
    this.path = path;
  }

  static is(value: unknown): value is PathOutsideWorkdirError {
    return AttractorError.isInstance(value) && value.code === 'agent.path_outside_workdir';
  }
}
