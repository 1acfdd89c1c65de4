import { createContext } from 'react';

export type ThemeRole =
  | 'ok'
  | 'fail'
  | 'warn'
  | 'running'
  | 'accent'
  | 'muted'
  | 'key'
  | 'heading'
  | 'code'
  | 'keyword'
  | 'string'
  | 'comment'
  | 'number'
  | 'added'
  | 'removed';

/** Colour per role, or undefined everywhere when colours are off (`NO_COLOR`). */
export type Theme = Readonly<Record<ThemeRole, string | undefined>>;

const COLOURS: Theme = {
  ok: 'green',
  fail: 'red',
  warn: 'yellow',
  running: 'cyan',
  accent: 'magenta',
  muted: 'gray',
  key: 'yellow',
  heading: 'cyan',
  code: 'yellow',
  keyword: 'magenta',
  string: 'green',
  comment: 'gray',
  number: 'blue',
  added: 'green',
  removed: 'red',
};

const PLAIN = Object.fromEntries(Object.keys(COLOURS).map((role) => [role, undefined])) as unknown as Theme;

/** `NO_COLOR` (non-empty) turns colours off unless `FORCE_COLOR` asks for them (https://no-color.org). */
export function themeFor(env: Record<string, string | undefined>): Theme {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0') return COLOURS;
  return env['NO_COLOR'] ? PLAIN : COLOURS;
}

export const ThemeContext = createContext<Theme>(COLOURS);
