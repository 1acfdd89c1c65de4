import { AttractorError } from '../../shared/errors.js';
import { closest } from '../closest-name.js';

/** One declared pipeline parameter: `vars="feature, env=staging"` declares `feature` and `env` (default `staging`). */
export interface PipelineVar {
  name: string;
  default?: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses the graph's `vars` attribute; a bad name is an error naming it. */
export function parseVarsDeclaration(text: string | undefined): PipelineVar[] {
  if (text === undefined || text.trim() === '') return [];
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = (eq === -1 ? part : part.slice(0, eq)).trim();
      if (!NAME.test(name)) {
        throw new AttractorError(
          'VARS_SYNTAX',
          `vars: "${name}" is not a parameter name (letters, digits and _, not starting with a digit); write vars="name, other=default".`,
        );
      }
      return eq === -1 ? { name } : { name, default: part.slice(eq + 1).trim() };
    });
}

/** `$name` as a whole word (`$name_x` and `$names` are other names), like `$goal`. */
export const PIPELINE_VAR_REFERENCE = /\$([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])/g;

export function expandVars(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PIPELINE_VAR_REFERENCE, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] as string) : whole,
  );
}

/** `$name` references in a text (whole words), in order. */
export function referencedVars(text: string): string[] {
  return [...text.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
}

/**
 * The value of every declared parameter: `supplied` (from `--set`), else its default. A declared
 * parameter with neither, or a supplied name that is not declared, is an error before the run starts.
 */
export function resolvePipelineVars(
  declared: readonly PipelineVar[],
  supplied: Readonly<Record<string, string>>,
): Record<string, string> {
  const names = declared.map((v) => v.name);
  for (const name of Object.keys(supplied)) {
    if (names.includes(name)) continue;
    const near = closest(name, names);
    const known =
      names.length > 0 ? `it declares: ${names.join(', ')}` : 'it declares none (graph attribute vars)';
    throw new AttractorError(
      'VAR_UNKNOWN',
      `--set ${name}: the pipeline has no parameter "${name}"${near ? ` (did you mean "${near}"?)` : ''}; ${known}.`,
    );
  }
  const values: Record<string, string> = {};
  for (const v of declared) {
    const value = Object.hasOwn(supplied, v.name) ? supplied[v.name] : v.default;
    if (value === undefined) {
      throw new AttractorError(
        'VAR_MISSING',
        `pipeline parameter "${v.name}" has no value: pass --set ${v.name}=VALUE, or give it a default (vars="${v.name}=…").`,
      );
    }
    values[v.name] = value;
  }
  return values;
}
