import { missingFilesAsWarnings } from '../compiler/files/missing-files-as-warnings.js';
import { AttractorError } from '../shared/errors.js';
import type { CliContext } from './cli-context.js';
import { diagnosticToJson, errorToDiagnostic } from './diagnostic-to-json.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';
import { countDiagnostics, describeCounts, formatDiagnostic } from './format-diagnostic.js';
import { loadPipelineFile } from './load-pipeline-file.js';

export interface ValidateOptions {
  strict?: boolean;
  json?: boolean;
  /** `--allow-read DIR`: more folders the pipeline may name files in. */
  allowRead?: string[];
  /** `--known-type NAME`: handler types the embedding application registers. */
  knownType?: string[];
}

/** `attractor validate`: exit 0 when no errors (and, with `--strict`, no warnings), else 1. */
export function runValidate(file: string, options: ValidateOptions, ctx: CliContext): number {
  const { io, colors } = ctx;
  let loaded: ReturnType<typeof loadPipelineFile>;
  try {
    loaded = loadPipelineFile(file, io, options.allowRead, options.knownType);
  } catch (error) {
    if (!options.json || !AttractorError.isInstance(error)) throw error;
    io.stdout(`${JSON.stringify({ valid: false, diagnostics: [errorToDiagnostic(error)] }, null, 2)}\n`);
    return EXIT_FAILURE;
  }

  const { graph } = loaded;
  const diagnostics = missingFilesAsWarnings(loaded.diagnostics);
  const counts = countDiagnostics(diagnostics);
  const valid = counts.errors === 0 && !(options.strict && counts.warnings > 0);

  if (options.json) {
    io.stdout(`${JSON.stringify({ valid, diagnostics: diagnostics.map(diagnosticToJson) }, null, 2)}\n`);
    return valid ? EXIT_OK : EXIT_FAILURE;
  }

  for (const d of diagnostics) io.stdout(`${formatDiagnostic(d, file, colors)}\n`);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const size = `${plural(graph.nodes.length, 'node')}, ${plural(graph.edges.length, 'edge')}`;
  const found = describeCounts(counts);
  if (valid) {
    const note = found === '' ? '' : ` with ${found}`;
    io.stdout(`${colors.green('✓')} ${file}: valid${note} (${size})\n`);
  } else {
    const why = counts.errors === 0 ? ' (--strict: warnings count as errors)' : '';
    io.stdout(`${colors.red('✗')} ${file}: invalid, ${found}${why}\n`);
  }
  return valid ? EXIT_OK : EXIT_FAILURE;
}
