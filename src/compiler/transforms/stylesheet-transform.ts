import type { PipelineGraph } from '../ir.js';
import { applyStylesheet, parseStylesheet, StylesheetSyntaxError } from '../stylesheet/index.js';
import type { Transform } from './transform.js';

/**
 * Applies the graph's `model_stylesheet`. A stylesheet that does not parse is skipped here: the
 * `stylesheet_syntax` lint rule reports it (with its position) and blocks the run.
 */
export const stylesheetTransform: Transform = {
  name: 'stylesheet',
  apply(graph: PipelineGraph): PipelineGraph {
    const text = graph.attrs.model_stylesheet;
    if (!text || text.trim() === '') return graph;
    try {
      return applyStylesheet(graph, parseStylesheet(text));
    } catch (error) {
      if (error instanceof StylesheetSyntaxError) return graph;
      throw error;
    }
  },
};
