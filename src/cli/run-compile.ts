import { graphToJson } from '../compiler/graph-to-json.js';
import type { CliContext } from './cli-context.js';
import type { CompileFormat } from './compile-format.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';
import { countDiagnostics, describeCounts, formatDiagnostic } from './format-diagnostic.js';
import { loadPipelineFile } from './load-pipeline-file.js';

/** `attractor compile`: the graph after transforms on stdout; diagnostics on stderr. */
export async function runCompile(
  file: string,
  options: { format: CompileFormat; allowRead?: string[] },
  ctx: CliContext,
): Promise<number> {
  const { io, colors } = ctx;
  const { graph, diagnostics } = loadPipelineFile(file, io, options.allowRead);
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d, file, colors)}\n`);
  const counts = countDiagnostics(diagnostics);
  if (counts.errors > 0) {
    io.stderr(`${colors.red('✗')} ${file}: not compiled, ${describeCounts(counts)}\n`);
    return EXIT_FAILURE;
  }

  switch (options.format) {
    case 'json':
      io.stdout(`${JSON.stringify(graphToJson(graph), null, 2)}\n`);
      break;
    case 'xstate': {
      const { lowerToMachineConfig } = await import('../compiler/lower/lower-to-machine-config.js');
      io.stdout(`${JSON.stringify(lowerToMachineConfig(graph), null, 2)}\n`);
      break;
    }
    case 'svg': {
      const { renderSvg } = await import('../svg/render-svg.js');
      io.stdout(await renderSvg(graph));
      break;
    }
  }
  return EXIT_OK;
}
