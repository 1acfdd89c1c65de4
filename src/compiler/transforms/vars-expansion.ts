import type { PipelineGraph } from '../ir.js';
import {
  expandVars,
  PIPELINE_VAR_REFERENCE,
  parseVarsDeclaration,
  resolvePipelineVars,
} from '../vars/pipeline-vars.js';
import { expandedTextBytes, expansionTooLarge, MAX_EXPANDED_TEXT_BYTES } from './expansion-limit.js';
import type { Transform, TransformContext } from './transform.js';

/**
 * Expands declared pipeline parameters (`vars`) in prompts and labels, and in the graph's goal and
 * label, so the run's header, its events and the drawn graph name the values. Tool commands are left as
 * written: they get the values as environment variables (`actors/tool/pipeline-values-env.ts`), so a
 * value is never read as shell syntax. Only a run
 * supplies `ctx.vars` (possibly empty): then every declared parameter needs a value; `validate` and
 * `compile` without values leave `$name` as written.
 */
export const varsExpansionTransform: Transform = {
  name: 'vars-expansion',
  apply(graph: PipelineGraph, ctx: TransformContext): PipelineGraph {
    const declared = parseVarsDeclaration(graph.attrs.vars);
    if (ctx.vars === undefined) return graph;
    const values = resolvePipelineVars(declared, ctx.vars);
    if (Object.keys(values).length === 0) return graph;
    const bytes = expandedTextBytes(graph, PIPELINE_VAR_REFERENCE, (match) =>
      Object.hasOwn(values, match[1] ?? '') ? values[match[1] ?? ''] : undefined,
    );
    if (bytes > MAX_EXPANDED_TEXT_BYTES) {
      ctx.diagnostics.push(expansionTooLarge('the pipeline parameters', bytes));
      return graph;
    }
    const nodes = graph.nodes.map((node) => {
      const attrs = { ...node.attrs };
      let changed = false;
      for (const key of ['prompt', 'label'] as const) {
        const text = attrs[key];
        if (text === undefined) continue;
        const expanded = expandVars(text, values);
        if (expanded !== text) {
          attrs[key] = expanded;
          changed = true;
        }
      }
      return changed ? { ...node, attrs } : node;
    });
    const attrs = { ...graph.attrs };
    for (const key of ['goal', 'label'] as const) {
      const text = attrs[key];
      if (text !== undefined) attrs[key] = expandVars(text, values);
    }
    return { ...graph, attrs, nodes };
  },
};
