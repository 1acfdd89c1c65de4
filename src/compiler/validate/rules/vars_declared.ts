import { definedFields } from '../../../shared/defined-fields.js';
import { AttractorError } from '../../../shared/errors.js';
import type { Diagnostic } from '../../diagnostic.js';
import { parseVarsDeclaration, referencedVars } from '../../vars/pipeline-vars.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'vars_declared';

/**
 * A `$name` in a prompt or label must be a declared pipeline parameter (graph `vars`) or `$goal`:
 * otherwise it reaches the model as written. Tool commands are not checked: `$HOME` there is the shell's.
 */
export const varsDeclaredRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description: 'Every $name in a prompt or label is declared in the graph attribute vars (or is $goal).',
  check(graph) {
    let declared: string[];
    try {
      declared = parseVarsDeclaration(graph.attrs.vars).map((v) => v.name);
    } catch (error) {
      if (!AttractorError.isInstance(error)) throw error;
      return [
        { rule: RULE, severity: 'warning', message: error.message, ...definedFields({ loc: graph.loc }) },
      ];
    }
    const findings: Diagnostic[] = [];
    for (const node of graph.nodes) {
      const seen = new Set<string>();
      for (const key of ['prompt', 'label'] as const) {
        for (const name of referencedVars(node.attrs[key] ?? '')) {
          if (name === 'goal' || declared.includes(name) || seen.has(name)) continue;
          seen.add(name);
          findings.push({
            rule: RULE,
            severity: 'warning',
            message: `Node "${node.id}" uses $${name}, which is not a declared pipeline parameter, so it stays "$${name}" in the text.`,
            node_id: node.id,
            fix: `Declare it on the graph: vars="${[...declared, name].join(', ')}" (a default after "=", e.g. ${name}=value), and pass --set ${name}=… when running.`,
            loc: node.attrLocs[key] ?? node.loc,
          });
        }
      }
    }
    return findings;
  },
};
