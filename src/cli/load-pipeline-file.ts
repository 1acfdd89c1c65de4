import path from 'node:path';
import { loadPipeline } from '../compiler/compile.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { CliIo } from './cli-io.js';
import { type PipelineSource, readPipelineSource } from './read-pipeline-source.js';

export interface LoadedPipelineFile {
  source: PipelineSource;
  graph: PipelineGraph;
  diagnostics: Diagnostic[];
}

/**
 * Reads, parses, transforms and validates a pipeline file. Lint findings are returned;
 * unreadable or unparseable input throws an AttractorError with a location.
 */
export function loadPipelineFile(file: string, io: Pick<CliIo, 'cwd'>): LoadedPipelineFile {
  const source = readPipelineSource(file, io.cwd);
  // Messages show the path as typed; when the CLI runs against another directory than the
  // process's (tests), the absolute path keeps `@file` prompts and child dotfiles resolvable.
  const shown =
    path.isAbsolute(file) || path.resolve(file) === source.absolutePath ? file : source.absolutePath;
  const { graph, diagnostics } = loadPipeline(source.text, { file: shown });
  return { source, graph, diagnostics };
}
