import type { PipelineGraph } from '../../compiler/ir.js';
import { parseVarsDeclaration } from '../../compiler/vars/pipeline-vars.js';
import type { PipelineContext } from '../pipeline-context.js';

/**
 * The run's values a tool command reads as environment variables: `goal` (the graph's goal, after
 * `--goal`) and each declared parameter (`vars`) by its name, from the context's `vars.<name>`. Passed in
 * the environment, never pasted into the command: the shell expands `$goal` itself and never reads the
 * value as shell syntax, so a goal holding `'; rm -rf ~'` stays text (docs/decisions/0015-pipeline-parameters.md).
 *
 * @example
 * pipelineValuesEnv(graph, context); // { goal: 'Add a login page', feature: 'login' }
 */
export function pipelineValuesEnv(graph: PipelineGraph, context: PipelineContext): Record<string, string> {
  const env: Record<string, string> = { goal: graph.attrs.goal ?? '' };
  let names: string[];
  try {
    names = parseVarsDeclaration(graph.attrs.vars).map((v) => v.name);
  } catch {
    names = []; // a bad declaration stopped the run before it started; nothing to pass
  }
  for (const name of names) {
    const value = context.get(`vars.${name}`);
    if (typeof value === 'string') env[name] = value;
  }
  return env;
}
