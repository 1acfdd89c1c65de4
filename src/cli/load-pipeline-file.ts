import { loadPipeline } from '../compiler/compile.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { CliIo } from './cli-io.js';
import { cliReadScope } from './cli-read-scope.js';
import { type PipelineSource, readPipelineSource } from './read-pipeline-source.js';
import { errorWithShownFile, withShownFile } from './shown-locations.js';

export interface LoadedPipelineFile {
  source: PipelineSource;
  graph: PipelineGraph;
  diagnostics: Diagnostic[];
}

/**
 * Reads, parses, transforms and validates a pipeline file. Lint findings are returned;
 * unreadable or unparseable input throws an AttractorError with a location.
 */
export function loadPipelineFile(
  file: string,
  io: Pick<CliIo, 'cwd'>,
  allowRead: readonly string[] = [],
  knownTypes: readonly string[] = [],
): LoadedPipelineFile {
  const source = readPipelineSource(file, io.cwd);
  const readScope = cliReadScope(source.absolutePath, io.cwd, allowRead);
  // The absolute path keeps `@file` prompts and child dotfiles resolvable; messages show it as typed.
  let loaded: ReturnType<typeof loadPipeline>;
  try {
    loaded = loadPipeline(source.text, {
      file: source.absolutePath,
      readScope,
      ...(knownTypes.length > 0 ? { customHandlerTypes: [...knownTypes] } : {}),
    });
  } catch (error) {
    throw errorWithShownFile(error, source);
  }
  return {
    source,
    graph: loaded.graph,
    diagnostics: loaded.diagnostics.map((d) => withShownFile(d, source)),
  };
}
