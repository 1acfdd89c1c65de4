import type { CliIo } from './cli-io.js';

export interface Colors {
  red: (text: string) => string;
  yellow: (text: string) => string;
  cyan: (text: string) => string;
  green: (text: string) => string;
  bold: (text: string) => string;
  dim: (text: string) => string;
}

const wrap =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const identity = (text: string): string => text;

/**
 * ANSI colours only on a terminal, so piped output and CI logs stay plain text.
 * `NO_COLOR` (https://no-color.org) turns them off; `FORCE_COLOR` (not "0") turns them on.
 */
export function colorsFor(io: Pick<CliIo, 'env' | 'isTTY'>): Colors {
  const force = io.env['FORCE_COLOR'];
  const noColor = io.env['NO_COLOR'];
  const enabled =
    force !== undefined && force !== '' && force !== '0'
      ? true
      : noColor !== undefined && noColor !== ''
        ? false
        : io.isTTY;
  if (!enabled) {
    return {
      red: identity,
      yellow: identity,
      cyan: identity,
      green: identity,
      bold: identity,
      dim: identity,
    };
  }
  return {
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    green: wrap(32, 39),
    bold: wrap(1, 22),
    dim: wrap(2, 22),
  };
}
