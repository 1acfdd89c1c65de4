/** The parsed model stylesheet: plain data, in declaration order. */

export type StyleSelector =
  | { kind: 'universal' }
  | { kind: 'shape'; shape: string }
  | { kind: 'class'; name: string }
  | { kind: 'id'; id: string };

/** Canonical property names (aliases already resolved) and their typed values. */
export interface StyleValues {
  llm_model?: string;
  llm_provider?: string;
  reasoning_effort?: string;
  temperature?: number;
  max_tokens?: number;
  /** Milliseconds. */
  timeout?: number;
  max_retries?: number;
  fidelity?: string;
  /** External ACP agent: `claude`, `gemini`, `codex` or `acp`. */
  agent?: string;
}

export type StyleProperty = keyof StyleValues;

export interface StyleDeclaration {
  property: StyleProperty;
  value: string | number;
  line: number;
  column: number;
}

export interface StyleRule {
  selector: StyleSelector;
  /** `*` 0, shape 1, `.class` 2, `#id` 3. */
  specificity: number;
  /** Position among all rules; later wins ties. */
  order: number;
  declarations: StyleDeclaration[];
  line: number;
  column: number;
}

export interface Stylesheet {
  rules: StyleRule[];
}

export const SELECTOR_SPECIFICITY: Readonly<Record<StyleSelector['kind'], number>> = {
  universal: 0,
  shape: 1,
  class: 2,
  id: 3,
};
