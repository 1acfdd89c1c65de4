import type { ConditionNode } from './condition-node.js';
import { parseCondition } from './parse-condition.js';

/** What a condition can see: the current outcome and the run context. */
export interface ConditionScope {
  /** Status of the outcome being routed (`success`, `fail`, ...). Falls back to context `outcome`. */
  outcome?: string;
  /** The outcome's preferred label. When `outcome` is given this is authoritative (missing = ""). */
  preferred_label?: string;
  context: Record<string, unknown>;
}

/**
 * Context values are compared as strings: `true` → "true", `3` → "3", missing/null → "",
 * objects as JSON.
 */
export function stringifyConditionValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/**
 * Resolves a key: `outcome` and `preferred_label` from the outcome, `context.KEY`
 * from `context["context.KEY"]` then `context["KEY"]`, any other key from `context[KEY]`.
 */
export function resolveConditionKey(key: string, scope: ConditionScope): unknown {
  // Own properties only: a key named `constructor` must not find Object.prototype.
  const context = (name: string): unknown =>
    Object.hasOwn(scope.context, name) ? scope.context[name] : undefined;
  if (key === 'outcome') return scope.outcome ?? context('outcome');
  if (key === 'preferred_label') {
    // While routing an outcome, a label left in the context by an earlier node must not leak in.
    if (scope.outcome !== undefined) return scope.preferred_label ?? '';
    return scope.preferred_label ?? context('preferred_label');
  }
  if (key.startsWith('context.')) {
    const prefixed = context(key);
    if (prefixed !== undefined && prefixed !== null) return prefixed;
    return context(key.slice('context.'.length));
  }
  return context(key);
}

function toNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function evaluateNode(node: ConditionNode, scope: ConditionScope): boolean {
  switch (node.kind) {
    case 'true':
      return true;
    case 'and':
      return node.operands.every((operand) => evaluateNode(operand, scope));
    case 'or':
      return node.operands.some((operand) => evaluateNode(operand, scope));
    case 'not':
      return !evaluateNode(node.operand, scope);
    case 'truthy': {
      const value = resolveConditionKey(node.key, scope);
      // A JSON `false` set by a handler means "no"; the string "false" stays non-empty, so true (docs/semantics.md#s5).
      if (value === false) return false;
      return stringifyConditionValue(value) !== '';
    }
    case 'contains':
      return stringifyConditionValue(resolveConditionKey(node.key, scope)).includes(node.value);
    case 'in': {
      const actual = stringifyConditionValue(resolveConditionKey(node.key, scope));
      return node.values.includes(actual);
    }
    case 'compare': {
      const actual = stringifyConditionValue(resolveConditionKey(node.key, scope));
      if (node.op === '=') return actual === node.value;
      if (node.op === '!=') return actual !== node.value;
      const left = toNumber(actual);
      const right = toNumber(node.value);
      if (left === undefined || right === undefined) return false;
      if (node.op === '<') return left < right;
      if (node.op === '>') return left > right;
      if (node.op === '<=') return left <= right;
      return left >= right;
    }
  }
}

/**
 * Evaluates a condition (text or parsed AST) against an outcome and context. Comparison is exact and
 * case-sensitive; numeric operators are false unless both sides are numbers. The empty condition is true.
 *
 * @throws ConditionSyntaxError when given text that does not parse.
 * @example
 * evaluateCondition('outcome=success && context.approved', { outcome: 'success', context: { approved: true } }); // true
 */
export function evaluateCondition(condition: string | ConditionNode, scope: ConditionScope): boolean {
  const node = typeof condition === 'string' ? parseCondition(condition) : condition;
  return evaluateNode(node, scope);
}
