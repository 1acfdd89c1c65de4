import { definedFields } from '../../shared/defined-fields.js';
import { AttractorError } from '../../shared/errors.js';
import type { Diagnostic } from '../diagnostic.js';

function where(diagnostic: Diagnostic): string {
  const loc = diagnostic.loc;
  return loc ? `${loc.file ?? '<input>'}:${loc.line}:${loc.column}: ` : '';
}

/** Thrown by `validateOrRaise` when a pipeline has ERROR findings; carries every finding, warnings included. */
export class PipelineValidationError extends AttractorError {
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const count = errors.length === 1 ? '1 error' : `${errors.length} errors`;
    const lines = errors.map((d) => `  ${where(d)}${d.message} [${d.rule}]${d.fix ? ` Fix: ${d.fix}` : ''}`);
    const first = errors[0]?.loc;
    super('VALIDATION_FAILED', `Pipeline validation failed with ${count}:\n${lines.join('\n')}`, {
      ...definedFields({ location: first }),
    });
    this.name = 'PipelineValidationError';
    this.diagnostics = diagnostics;
  }

  /** Each finding line carries its own location, so the first one is not repeated in front. */
  override describe(): string {
    return this.message;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), diagnostics: this.diagnostics };
  }
}
