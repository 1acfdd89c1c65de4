import type { PipelineGraph } from '../compiler/ir.js';
import { isConditional } from '../compiler/routing/select-edge.js';
import type { ConditionOutcomes } from './run-observation.js';
import type { TestFileResult } from './run-test-file.js';

/** An edge as a person reads it: `from -> to`, with its condition or label when it has one. */
export interface CoveredEdge {
  index: number;
  from: string;
  to: string;
  condition?: string;
  label?: string;
}

/** What no case of a pipeline's tests exercised. */
export interface PipelineCoverage {
  /** The pipeline's DOT file, absolute. */
  pipeline: string;
  nodes: { total: number; missed: string[] };
  edges: { total: number; missed: CoveredEdge[] };
  /** Conditional edges whose condition never held, or never failed to hold, where its node routed. */
  conditions: { total: number; missed: (CoveredEdge & { never: 'held' | 'failed' })[] };
}

const describeEdge = (graph: PipelineGraph, index: number): CoveredEdge => {
  const edge = graph.edges.find((e) => e.index === index);
  return {
    index,
    from: edge?.source ?? '?',
    to: edge?.target ?? '?',
    ...(edge?.attrs.condition ? { condition: edge.attrs.condition } : {}),
    ...(edge?.attrs.label ? { label: edge.attrs.label } : {}),
  };
};

function mergedConditions(results: readonly TestFileResult[]): Map<number, ConditionOutcomes> {
  const merged = new Map<number, ConditionOutcomes>();
  for (const c of results.flatMap((file) => file.cases)) {
    for (const [index, seen] of c.observation.conditions) {
      const known = merged.get(index) ?? { held: false, failed: false };
      merged.set(index, { held: known.held || seen.held, failed: known.failed || seen.failed });
    }
  }
  return merged;
}

/**
 * The coverage of one pipeline by the test files that test it: nodes no case entered, edges no case
 * took, and each condition's outcomes (true and false) that no case's routing saw.
 */
export function pipelineCoverage(
  pipeline: string,
  results: readonly TestFileResult[],
): PipelineCoverage | undefined {
  const graph = results[0]?.graph;
  if (!graph) return undefined;
  const cases = results.flatMap((file) => file.cases);
  const entered = new Set(cases.flatMap((c) => [...c.observation.entered]));
  const taken = new Set(cases.flatMap((c) => [...c.observation.edgesTaken]));
  const conditions = mergedConditions(results);
  const conditional = graph.edges.filter(isConditional);
  return {
    pipeline,
    nodes: {
      total: graph.nodes.length,
      missed: graph.nodes.map((n) => n.id).filter((id) => !entered.has(id)),
    },
    edges: {
      total: graph.edges.length,
      missed: graph.edges.filter((e) => !taken.has(e.index)).map((e) => describeEdge(graph, e.index)),
    },
    conditions: {
      total: conditional.length * 2,
      missed: conditional.flatMap((edge) => {
        const seen = conditions.get(edge.index);
        const never: ('held' | 'failed')[] = [];
        if (!seen?.held) never.push('held');
        if (!seen?.failed) never.push('failed');
        return never.map((which) => ({ ...describeEdge(graph, edge.index), never: which }));
      }),
    },
  };
}

/** Coverage per pipeline, the test files of one pipeline taken together. */
export function testCoverage(results: readonly TestFileResult[]): PipelineCoverage[] {
  const byPipeline = new Map<string, TestFileResult[]>();
  for (const result of results)
    byPipeline.set(result.pipelineFile, [...(byPipeline.get(result.pipelineFile) ?? []), result]);
  return [...byPipeline.entries()].flatMap(
    ([pipelineFile, files]) => pipelineCoverage(pipelineFile, files) ?? [],
  );
}
