import type { Diagnostic } from '../compiler/diagnostic.js';
import type { Colors } from './colors.js';

/** `file:line:col: severity rule: message`, the shape editors and CI annotators understand. */
export function formatDiagnostic(diagnostic: Diagnostic, file: string, colors: Colors): string {
  const loc = diagnostic.loc;
  const where = loc ? `${loc.file ?? file}:${loc.line}:${loc.column}` : file;
  const severity =
    diagnostic.severity === 'error'
      ? colors.red(colors.bold('error'))
      : diagnostic.severity === 'warning'
        ? colors.yellow(colors.bold('warning'))
        : colors.cyan('info');
  const fix = diagnostic.fix ? colors.dim(` (fix: ${diagnostic.fix})`) : '';
  return `${colors.bold(`${where}:`)} ${severity} ${diagnostic.rule}: ${oneLine(diagnostic.message)}${fix}`;
}

export interface DiagnosticCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export function countDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticCounts {
  const counts = { errors: 0, warnings: 0, infos: 0 };
  for (const d of diagnostics) {
    if (d.severity === 'error') counts.errors++;
    else if (d.severity === 'warning') counts.warnings++;
    else counts.infos++;
  }
  return counts;
}

/** "2 errors, 1 warning": only the non-zero parts, in severity order. */
export function describeCounts(counts: DiagnosticCounts): string {
  const parts: string[] = [];
  if (counts.errors > 0) parts.push(plural(counts.errors, 'error'));
  if (counts.warnings > 0) parts.push(plural(counts.warnings, 'warning'));
  if (counts.infos > 0) parts.push(plural(counts.infos, 'note'));
  return parts.join(', ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
