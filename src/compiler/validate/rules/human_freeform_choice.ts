import { stripAcceleratorPrefix } from '../../accelerator.js';
import type { Diagnostic } from '../../diagnostic.js';
import { freeTextChoice, gateChoices } from '../../gate-choices.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'human_freeform_choice';

/**
 * `human.freeform` lets a gate take free text, following the choice it names; a value naming no choice
 * (or `true` on a gate with several) would silently take no text at all, so the run refuses it.
 */
export const humanFreeformChoiceRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'human.freeform must name one of the gate’s choices (or be true on a gate with one edge).',
  check(graph, index) {
    const findings: Diagnostic[] = [];
    for (const node of graph.nodes) {
      const value = node.attrs['human.freeform'];
      if (value === undefined || ['', 'false'].includes(value.trim().toLowerCase())) continue;
      const choices = gateChoices(node, index.edgesFrom(node.id));
      if (freeTextChoice(value, choices)) continue;
      const listed = choices.map((c) => `[${c.key}] ${stripAcceleratorPrefix(c.label)}`).join(', ');
      const several = value.trim().toLowerCase() === 'true';
      findings.push({
        rule: RULE,
        severity: 'error',
        message: several
          ? `Gate "${node.id}" has human.freeform=true but ${choices.length} choices, so free text has no single way to go.`
          : `Gate "${node.id}" has human.freeform="${value}", which names none of its choices${listed ? ` (${listed})` : ''}.`,
        node_id: node.id,
        fix: choices[0]
          ? `Name the choice free text follows, e.g. human.freeform="${choices.at(-1)?.key}".`
          : `Give "${node.id}" an outgoing edge for free text to follow.`,
        loc: node.attrLocs['human.freeform'] ?? node.loc,
      });
    }
    return findings;
  },
};
