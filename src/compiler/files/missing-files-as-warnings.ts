import type { Diagnostic } from '../diagnostic.js';

const MISSING_FILE_RULES: ReadonlySet<string> = new Set(['prompt_file_missing', 'child_dotfile_missing']);

/**
 * `validate` judges the pipeline, not the machine it is checked on: a file the pipeline names that is
 * missing here (a prompt folder left out of a copy, a child pipeline still to be written) is a warning,
 * while a run, which would have to read it, still refuses to start. A file outside the read scope stays
 * an error everywhere (decision 0101).
 */
export function missingFilesAsWarnings(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) =>
    MISSING_FILE_RULES.has(d.rule) && d.severity === 'error'
      ? { ...d, severity: 'warning', message: `${d.message}; a run will not start until it exists` }
      : d,
  );
}
