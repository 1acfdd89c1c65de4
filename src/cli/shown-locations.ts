import type { Diagnostic } from '../compiler/diagnostic.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineSource } from './read-pipeline-source.js';

/**
 * The engine locates findings in the pipeline's absolute path (it resolves `@file` prompts and child
 * dotfiles against it); messages show the path as the user typed it, as `validate` does.
 */
export function withShownFile(diagnostic: Diagnostic, source: PipelineSource): Diagnostic {
  if (!diagnostic.loc || diagnostic.loc.file !== source.absolutePath) return diagnostic;
  return { ...diagnostic, loc: { ...diagnostic.loc, file: source.file } };
}

/** The same error located in the path as typed (a syntax error found while starting a run). */
export function errorWithShownFile(error: unknown, source: PipelineSource): unknown {
  if (!AttractorError.isInstance(error) || error.location?.file !== source.absolutePath) return error;
  return new AttractorError(error.code, error.message, {
    cause: error,
    location: { ...error.location, file: source.file },
  });
}
