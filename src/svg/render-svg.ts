import type { PipelineGraph } from '../compiler/ir.js';
import { AttractorError } from '../shared/errors.js';
import { type GraphDrawingOptions, renderGraphDot } from './render-graph-dot.js';

/** Draws the pipeline as SVG with the bundled WebAssembly Graphviz (no system `dot` needed). */
export async function renderSvg(graph: PipelineGraph, options: GraphDrawingOptions = {}): Promise<string> {
  // 2 MB of WASM: loaded only when someone asks for a drawing.
  const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
  const graphviz = await Graphviz.load();
  try {
    return graphviz.dot(renderGraphDot(graph, options), 'svg');
  } catch (error) {
    throw new AttractorError('SVG_RENDER', `Graphviz could not draw this pipeline: ${String(error)}`, {
      cause: error,
    });
  }
}
