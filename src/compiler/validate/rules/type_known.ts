import { closest } from '../../closest-name.js';
import type { Diagnostic, Severity } from '../../diagnostic.js';
import { BUILTIN_HANDLER_TYPES, SHAPE_HANDLERS } from '../../ir.js';
import type { LintRule } from '../lint-rule.js';
import { didYouMean, replaceValue } from './replace-value.js';

const RULE = 'type_known';

const SHAPES = Object.keys(SHAPE_HANDLERS).join(', ');

/**
 * Also: are all shapes recognized? An unknown shape silently runs as codergen, and a typo
 * such as `Msqaure` would lose the exit node, so an explicit shape outside the table is reported too (unless
 * `type` overrides it).
 *
 * An unknown handler type is an ERROR where the handlers that will run are known (the CLI, the server,
 * workers: the built-ins plus `customHandlerTypes`): it would otherwise run as a coding agent with a
 * shell, so a misspelt `type="tol"` or an embedder's `type="deploy"` run elsewhere does far more than
 * asked. A library caller running its own registry gets `unknownTypes: 'warning'`: its registry may
 * handle what the validator cannot see.
 */
export function createTypeKnownRule(
  customHandlerTypes: readonly string[] = [],
  unknownTypes: Severity = 'error',
): LintRule {
  const known = new Set([...BUILTIN_HANDLER_TYPES, ...customHandlerTypes]);
  const list = [...known].join(', ');
  return {
    id: RULE,
    severity: unknownTypes,
    description: 'Every node handler type must be a built-in or registered handler.',
    check(graph) {
      const findings: Diagnostic[] = [];
      for (const node of graph.nodes) {
        const shape = node.attrs.shape;
        if (shape !== undefined && node.attrs.type === undefined && !(shape in SHAPE_HANDLERS)) {
          const nearShape = closest(shape, Object.keys(SHAPE_HANDLERS));
          findings.push({
            rule: RULE,
            severity: 'warning',
            message: `Node "${node.id}" has shape "${shape}", which is not a pipeline shape${didYouMean(nearShape)}, so it runs as ${node.handler}.`,
            node_id: node.id,
            fix: `Use one of the shapes ${SHAPES}, or set type="..." explicitly.`,
            ...replaceValue(node.attrLocs['shape'], shape, nearShape),
            loc: node.attrLocs['shape'] ?? node.loc,
          });
        }
        if (known.has(node.handler)) continue;
        const near = closest(node.handler, [...known]);
        findings.push({
          rule: RULE,
          severity: unknownTypes,
          message: `Node "${node.id}" has handler type "${node.handler}", which is not a known handler${didYouMean(near)}.`,
          node_id: node.id,
          fix: `Use one of: ${list}; or, for a handler your own application registers, declare it (attractor validate --known-type ${node.handler}).`,
          ...(node.attrs.type === undefined
            ? {}
            : replaceValue(node.attrLocs['type'], node.attrs.type, near)),
          loc: node.attrLocs['type'] ?? node.loc,
        });
      }
      return findings;
    },
  };
}

/** `type_known` with the built-in handler types only. */
export const typeKnownRule: LintRule = createTypeKnownRule();
