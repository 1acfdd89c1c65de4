import type { StageStatus } from '../outcome.js';
import type { ConditionNode } from './condition-node.js';
import { evaluateCondition } from './evaluate-condition.js';

/** Above this many combinations of key values the question is left open (see `conditionsCover`). */
const MAX_COMBINATIONS = 4096;
/** Stands for "any value the conditions do not name". */
const OTHER = '\u0000other';

/** Every value a key is compared with, and one value on each side of every number. */
function candidateValues(nodes: readonly ConditionNode[]): Map<string, Set<string>> {
  const values = new Map<string, Set<string>>();
  const add = (key: string, ...more: string[]) => {
    const set = values.get(key) ?? new Set(['', OTHER]);
    for (const value of more) set.add(value);
    values.set(key, set);
  };
  const walk = (node: ConditionNode): void => {
    switch (node.kind) {
      case 'true':
        break;
      case 'and':
      case 'or':
        for (const operand of node.operands) walk(operand);
        break;
      case 'not':
        walk(node.operand);
        break;
      case 'truthy':
        add(node.key);
        break;
      case 'contains':
        add(node.key, node.value);
        break;
      case 'in':
        add(node.key, ...node.values);
        break;
      case 'compare': {
        const n = Number(node.value);
        const around = node.value.trim() !== '' && Number.isFinite(n) ? [String(n - 1), String(n + 1)] : [];
        add(node.key, node.value, ...around);
        break;
      }
    }
  };
  for (const node of nodes) walk(node);
  return values;
}

/**
 * Whether at least one of `conditions` holds after an outcome of `status` whatever the run's values are:
 * true when no combination of values (those the conditions name, the empty value and any other) makes
 * them all false — so `verdict=fail` and `verdict!=fail` together cover every case, while
 * `ready=true` and `ready=false` do not (an unset `ready` is neither). `undefined` when the conditions
 * read too many keys to try every combination.
 *
 * @example
 * conditionsCover([parseCondition('x=a'), parseCondition('x!=a')], 'success'); // true
 */
export function conditionsCover(
  conditions: readonly ConditionNode[],
  status: StageStatus,
): boolean | undefined {
  const candidates = candidateValues(conditions);
  candidates.delete('outcome');
  const keys = [...candidates.keys()];
  const lists = keys.map((key) => [...(candidates.get(key) ?? [])]);
  if (lists.reduce((total, list) => total * list.length, 1) > MAX_COMBINATIONS) return undefined;
  const choice = lists.map(() => 0);
  for (;;) {
    const context: Record<string, unknown> = {};
    let label = '';
    keys.forEach((key, i) => {
      const value = lists[i]?.[choice[i] ?? 0] ?? '';
      if (key === 'preferred_label') label = value;
      else context[key] = value;
    });
    const scope = { outcome: status, preferred_label: label, context };
    if (!conditions.some((condition) => evaluateCondition(condition, scope))) return false;
    // Next combination, like an odometer.
    let i = 0;
    for (; i < choice.length; i++) {
      choice[i] = (choice[i] ?? 0) + 1;
      if ((choice[i] ?? 0) < (lists[i]?.length ?? 0)) break;
      choice[i] = 0;
    }
    if (i === choice.length) return true;
  }
}
