import type { SourceSpan } from '../../shared/errors.js';
import { AttractorError } from '../../shared/errors.js';

/** A `prompt="@path/to/file.md"` whose file cannot be read. */
export class PromptIncludeError extends AttractorError {
  /** The path as written after `@`. */
  readonly includePath: string;
  /** The absolute path that was tried. */
  readonly resolvedPath: string;

  constructor(
    includePath: string,
    resolvedPath: string,
    options: { cause?: unknown; location?: SourceSpan; nodeId?: string; reason?: string } = {},
  ) {
    const subject = options.nodeId ? `the prompt of node "${options.nodeId}"` : 'a prompt';
    const reason = options.reason ? ` (${options.reason})` : '';
    super(
      'PROMPT_FILE_MISSING',
      `${subject} includes "@${includePath}", but ${resolvedPath} cannot be read${reason}; paths are relative to the DOT file`,
      options,
    );
    this.name = 'PromptIncludeError';
    this.includePath = includePath;
    this.resolvedPath = resolvedPath;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), includePath: this.includePath, resolvedPath: this.resolvedPath };
  }
}
