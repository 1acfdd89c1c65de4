import type { Diagnostic } from '../../diagnostic.js';
import { BUILTIN_HANDLER_TYPES, SHAPE_HANDLERS } from '../../ir.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'type_known';

const SHAPES = Object.keys(SHAPE_HANDLERS).join(', ');

/**
 * Also: are all shapes recognized? An unknown shape silently runs as codergen, and a typo
 * such as `Msqaure` would lose the exit node, so an explicit shape outside the table is reported too (unless
 * `type` overrides it).
 *
 * The rule with the handler types an application registered added to the built-ins. A WARNING, not an error:
 * the handler may be registered at run time by code the validator cannot see.
 */
export function createTypeKnownRule(customHandlerTypes: readonly string[] = []): LintRule {
  const known = new Set([...BUILTIN_HANDLER_TYPES, ...customHandlerTypes]);
  const list = [...known].join(', ');
  return {
    id: RULE,
    severity: 'warning',
    description: 'Every node handler type must be a built-in or registered handler.',
    check(graph) {
      const findings: Diagnostic[] = [];
      for (const node of graph.nodes) {
        const shape = node.attrs.shape;
        if (shape !== undefined && node.attrs.type === undefined && !(shape in SHAPE_HANDLERS)) {
          findings.push({
            rule: RULE,
            severity: 'warning',
            message: `Node "${node.id}" has shape "${shape}", which is not a pipeline shape, so it runs as ${node.handler}.`,
            node_id: node.id,
            fix: `Use one of the shapes ${SHAPES}, or set type="..." explicitly.`,
            loc: node.attrLocs['shape'] ?? node.loc,
          });
        }
        if (known.has(node.handler)) continue;
        findings.push({
          rule: RULE,
          severity: 'warning',
          message: `Node "${node.id}" has handler type "${node.handler}", which is not a known handler.`,
          node_id: node.id,
          fix: `Use one of: ${list}; or register a custom handler for "${node.handler}".`,
          loc: node.attrLocs['type'] ?? node.loc,
        });
      }
      return findings;
    },
  };
}

/** `type_known` with the built-in handler types only. */
export const typeKnownRule: LintRule = createTypeKnownRule();
