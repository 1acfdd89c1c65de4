import type { SourceLocation } from '../ir.js';

/** One attribute as written in DOT, before typing: canonical key, decoded string value, where it came from. */
export interface RawAttr {
  key: string;
  value: string;
  /** Location of the `key=value` text (for an inherited default: of the `node [...]`/`edge [...]` entry). */
  loc: SourceLocation;
  /** False when the value comes from a `node [...]` or `edge [...]` default. */
  explicit: boolean;
}
