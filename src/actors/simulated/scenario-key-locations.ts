/** A place in a scenario file, 1-based. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Where each node id is written in a scenario file: the keys of its top-level `"nodes"` and `"answers"`
 * objects, at their opening quote (the first place wins). A small scan over text that already parsed as
 * JSON, so warnings about a scripted node can point at it.
 *
 * @example
 * scenarioKeyLocations('{\n  "nodes": { "revew": [] }\n}').get('revew'); // { line: 2, column: 14 }
 */
export function scenarioKeyLocations(text: string): Map<string, TextPosition> {
  const found = new Map<string, TextPosition>();
  let depth = 0;
  let section: string | undefined;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') {
      line += 1;
      lineStart = i + 1;
    } else if (ch === '{' || ch === '[') depth += 1;
    else if (ch === '}' || ch === ']') {
      depth -= 1;
      if (depth <= 1) section = undefined;
    } else if (ch === '"') {
      const start = i;
      for (i += 1; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i += 1;
      let next = i + 1;
      while (next < text.length && /\s/.test(text[next] ?? '')) next += 1;
      if (text[next] !== ':') continue; // a value, not a key
      const key = JSON.parse(text.slice(start, i + 1)) as string;
      if (depth === 1) section = key === 'nodes' || key === 'answers' ? key : undefined;
      else if (depth === 2 && section !== undefined && !found.has(key))
        found.set(key, { line, column: start - lineStart + 1 });
    }
  }
  return found;
}
