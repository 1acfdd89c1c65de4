import type { Diagnostic } from '../diagnostic.js';
import type { PipelineGraph } from '../ir.js';

/**
 * Most UTF-8 bytes the prompts and labels of one pipeline may hold once `$goal` and its parameters are
 * expanded. A pipeline far larger than any written by hand (200 nodes each quoting a 20 KB goal) stays
 * below it; a 700 KB goal quoted by 300 nodes, which would write 200 MB of prompts per run, does not.
 */
export const MAX_EXPANDED_TEXT_BYTES = 8 * 1024 * 1024;

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * The bytes of the graph's prompts and labels once every match of `variable` is replaced by the
 * value `valueFor` gives its match (undefined: left as written); counted before anything is expanded.
 */
export function expandedTextBytes(
  graph: PipelineGraph,
  variable: RegExp,
  valueFor: (match: RegExpMatchArray) => string | undefined,
): number {
  let total = 0;
  for (const node of graph.nodes) {
    for (const text of [node.attrs.prompt, node.attrs.label]) {
      if (text === undefined) continue;
      total += utf8Bytes(text);
      for (const match of text.matchAll(variable)) {
        const value = valueFor(match);
        if (value !== undefined) total += utf8Bytes(value) - utf8Bytes(match[0]);
      }
    }
  }
  return total;
}

/** The error a transform returns instead of expanding past {@link MAX_EXPANDED_TEXT_BYTES}. */
export function expansionTooLarge(what: string, bytes: number): Diagnostic {
  return {
    rule: 'expansion_too_large',
    severity: 'error',
    message:
      `expanding ${what} would make the prompts and labels ${bytes} bytes, over the limit of ` +
      `${MAX_EXPANDED_TEXT_BYTES} bytes (8 MiB) per pipeline.`,
    fix: 'keep long text in one file the agent reads (an @file prompt or a file in the working tree) instead of repeating it in every prompt.',
  };
}
