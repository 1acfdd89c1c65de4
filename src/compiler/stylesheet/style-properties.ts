import { FIDELITY_MODES } from '../ir.js';
import type { StyleProperty } from './stylesheet.js';

type Converter = (raw: string) => { value: string | number } | { error: string };

const text: Converter = (raw) => (raw === '' ? { error: 'value is empty' } : { value: raw });

const number: Converter = (raw) => {
  const n = Number(raw);
  return raw !== '' && Number.isFinite(n) ? { value: n } : { error: `"${raw}" is not a number` };
};

const count: Converter = (raw) => {
  const n = Number(raw);
  return /^\d+$/.test(raw) && Number.isSafeInteger(n)
    ? { value: n }
    : { error: `"${raw}" is not a whole number ≥ 0` };
};

const DURATION_UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** `900s`, `15m`, `250ms`, `2h`, `1d`, `1.5s`; a bare number is seconds (as in DOT attributes). */
export function parseDurationMs(raw: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h|d)?$/.exec(raw.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * (DURATION_UNITS[match[2] ?? 's'] as number));
}

const duration: Converter = (raw) => {
  const ms = parseDurationMs(raw);
  return ms === undefined ? { error: `"${raw}" is not a duration (e.g. 30s, 15m, 250ms)` } : { value: ms };
};

const fidelity: Converter = (raw) =>
  (FIDELITY_MODES as readonly string[]).includes(raw)
    ? { value: raw }
    : { error: `"${raw}" is not a fidelity mode (${FIDELITY_MODES.join(', ')})` };

/** The allow-list. Unknown properties are an error, so a typo does not silently do nothing. */
const PROPERTIES: Readonly<Record<StyleProperty, Converter>> = {
  llm_model: text,
  llm_provider: text,
  reasoning_effort: text,
  temperature: number,
  max_tokens: count,
  timeout: duration,
  max_retries: count,
  fidelity,
  agent: text,
};

const ALIASES: Readonly<Record<string, StyleProperty>> = { model: 'llm_model', provider: 'llm_provider' };

export const STYLE_PROPERTY_NAMES: readonly string[] = [...Object.keys(PROPERTIES), ...Object.keys(ALIASES)];

export type StylePropertyResult =
  | { property: StyleProperty; value: string | number }
  | { error: string; on: 'property' | 'value' };

/** Resolves an alias and converts the raw value to its type. */
export function convertStyleProperty(name: string, raw: string): StylePropertyResult {
  const property = Object.hasOwn(ALIASES, name)
    ? (ALIASES[name] as StyleProperty)
    : Object.hasOwn(PROPERTIES, name)
      ? (name as StyleProperty)
      : undefined;
  if (!property) {
    return {
      error: `unknown property "${name}"; allowed: ${STYLE_PROPERTY_NAMES.join(', ')}`,
      on: 'property',
    };
  }
  const converted = PROPERTIES[property](raw);
  return 'error' in converted
    ? { error: `${name}: ${converted.error}`, on: 'value' }
    : { property, ...converted };
}
