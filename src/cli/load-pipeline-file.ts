import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { parseDot } from '../compiler/parse/parse-dot.js';
import { applyTransforms } from '../compiler/transforms/apply-transforms.js';
import { validate } from '../compiler/validate/validate.js';
import type { CliIo } from './cli-io.js';
import { type PipelineSource, readPipelineSource } from './read-pipeline-source.js';

export interface LoadedPipeline {
  source: PipelineSource;
  graph: PipelineGraph;
  diagnostics: Diagnostic[];
}

/**
 * Reads, parses, transforms and validates a pipeline file. Lint findings are returned;
 * unreadable or unparseable input throws an AttractorError with a location.
 */
export function loadPipelineFile(file: string, io: Pick<CliIo, 'cwd'>): LoadedPipeline {
  const source = readPipelineSource(file, io.cwd);
  const parsed = parseDot(source.text, { file: source.file });
  const graph = { ...parsed.graph, file: source.absolutePath };
  const transformed = applyTransforms(graph, {});
  const diagnostics = [...parsed.diagnostics, ...transformed.diagnostics, ...validate(transformed.graph)];
  return { source, graph: transformed.graph, diagnostics };
}
