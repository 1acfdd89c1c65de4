import { loadPipeline } from '../compiler/compile.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import { missingFilesAsWarnings } from '../compiler/files/missing-files-as-warnings.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { type DotOutline, outlineDot } from './dot-outline.js';
import { type DotToken, tokenizeDot } from './dot-tokens.js';

/** One open pipeline as the editor holds it, read the way `attractor validate` reads it. */
export interface PipelineDocument {
  text: string;
  /** Absolute path of the file (`@file` prompts and child pipelines resolve against it). */
  file?: string;
  tokens: DotToken[];
  outline: DotOutline;
  /** The compiled graph; undefined while the text does not parse. */
  graph?: PipelineGraph;
  /** What `validate` reports, a syntax error included. */
  diagnostics: Diagnostic[];
}

/**
 * Tokens and outline always (completion works on text that does not parse yet), and the graph and
 * diagnostics of `validate` when it parses (`knownTypes` as its `--known-type`). Never throws for what
 * the user typed.
 */
export function analyzePipeline(
  text: string,
  file?: string,
  knownTypes: readonly string[] = [],
): PipelineDocument {
  const tokens = tokenizeDot(text);
  const outline = outlineDot(tokens);
  const base = { text, tokens, outline, ...definedFields({ file }) };
  try {
    const loaded = loadPipeline(text, {
      ...definedFields({ file }),
      ...(knownTypes.length > 0 ? { customHandlerTypes: [...knownTypes] } : {}),
    });
    return { ...base, graph: loaded.graph, diagnostics: missingFilesAsWarnings(loaded.diagnostics) };
  } catch (error) {
    return { ...base, diagnostics: [errorDiagnostic(error)] };
  }
}

function errorDiagnostic(error: unknown): Diagnostic {
  if (!AttractorError.isInstance(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      rule: 'internal_error',
      severity: 'error',
      message: `attractor could not read this: ${message}`,
    };
  }
  const diagnostic: Diagnostic = {
    rule: error.code.toLowerCase(),
    severity: 'error',
    message: error.message,
  };
  if (error.location) diagnostic.loc = error.location;
  return diagnostic;
}
