import type { Diagnostic } from '../compiler/diagnostic.js';
import { AttractorError } from '../shared/errors.js';
import type { CliContext } from './cli-context.js';
import { EXIT_FAILURE } from './exit-codes.js';
import { countDiagnostics, describeCounts, formatDiagnostic } from './format-diagnostic.js';

/** The findings of a pipeline the compiler refused (`PipelineValidationError`), or undefined. */
export function validationFindings(error: unknown): readonly Diagnostic[] | undefined {
  if (!AttractorError.isInstance(error) || error.code !== 'VALIDATION_FAILED') return undefined;
  const { diagnostics } = error as AttractorError & { diagnostics?: readonly Diagnostic[] };
  return Array.isArray(diagnostics) ? diagnostics : undefined;
}

/**
 * A run refused by validation prints its findings exactly as `attractor validate` does (each location
 * once, the path as typed), on stderr, and exits 1.
 */
export function presentValidationFailure(
  diagnostics: readonly Diagnostic[],
  file: string,
  ctx: CliContext,
): number {
  for (const d of diagnostics) ctx.io.stderr(`${formatDiagnostic(d, file, ctx.colors)}\n`);
  const found = describeCounts(countDiagnostics(diagnostics));
  ctx.io.stderr(`${ctx.colors.red('✗')} ${file}: invalid, ${found}; the run did not start.\n`);
  return EXIT_FAILURE;
}
