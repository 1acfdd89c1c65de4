import {
  type Document,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  type LineCounter,
  type Node,
} from 'yaml';
import type { TextPosition } from '../actors/simulated/scenario-key-locations.js';

/**
 * Where the value at `path` is written in a parsed YAML (or JSON) document, 1-based; of an unknown key
 * `key` of the object at `path`, where that key is. A path that leads nowhere (a missing field) falls
 * back to the deepest node it reaches, so an error always points into the file.
 */
export function locateYamlPath(
  doc: Document.Parsed,
  lineCounter: LineCounter,
  path: readonly PropertyKey[],
  key?: string,
): TextPosition {
  let node: Node | null | undefined = doc.contents;
  let found: Node | null | undefined = node;
  for (const step of path) {
    node = isNode(node) ? childOf(node, step) : undefined;
    if (!node) break;
    found = node;
  }
  if (key !== undefined && isMap(found)) {
    const pair = found.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
    if (pair && isNode(pair.key)) found = pair.key;
  }
  const offset = found?.range?.[0] ?? 0;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function childOf(node: Node, step: PropertyKey): Node | undefined {
  if (typeof step === 'symbol') return undefined;
  if (!isCollection(node)) return undefined;
  const found: unknown = node.get(step, true);
  return isNode(found) ? found : undefined;
}
