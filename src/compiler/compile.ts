import { definedFields } from '../shared/defined-fields.js';
import type { Diagnostic } from './diagnostic.js';
import { checkNamedFiles } from './files/check-named-files.js';
import type { NamedFileReader } from './files/read-named-file.js';
import { defaultReadScope, type ReadScope } from './files/read-scope.js';
import type { PipelineGraph } from './ir.js';
import { lowerToMachineConfig } from './lower/lower-to-machine-config.js';
import type { MachineConfig } from './lower/machine-config.js';
import { parseDot } from './parse/parse-dot.js';
import { applyTransforms, type Transform } from './transforms/index.js';
import type { LintRule } from './validate/lint-rule.js';
import { PipelineValidationError } from './validate/pipeline-validation-error.js';
import { hasErrors, validate } from './validate/validate.js';

export interface LoadOptions {
  /** Path of the DOT file: locations, `@file` prompts and child dotfiles resolve against it. */
  file?: string;
  /**
   * Where named files (`@file` prompts, child dotfiles) may be read from; default: the DOT file's folder
   * and the working directory (`defaultReadScope`). Kept on the graph for what a run reads later.
   */
  readScope?: ReadScope;
  /** Reads named files (default: the disk, confined to `readScope`). Injected in tests. */
  readFile?: NamedFileReader;
  /** Overrides the graph's `goal` (`--goal`). */
  goal?: string;
  /** Pipeline parameter values (`--set name=value`); given, every declared parameter must get one. */
  vars?: Readonly<Record<string, string>>;
  transforms?: Transform[];
  rules?: LintRule[];
  customHandlerTypes?: string[];
  /** How an unknown handler type is reported (`ValidateOptions.unknownTypes`; default an error). */
  unknownTypes?: 'error' | 'warning';
}

export interface LoadedPipeline {
  graph: PipelineGraph;
  diagnostics: Diagnostic[];
}

/**
 * Parse, transform and validate. Never throws for lint findings (they are returned); throws a
 * `DotSyntaxError` when the text is not a pipeline at all.
 */
export function loadPipeline(source: string, options: LoadOptions = {}): LoadedPipeline {
  const parsed = parseDot(source, options.file ? { file: options.file } : {});
  const readScope = options.readScope ?? defaultReadScope(options.file);
  const transformed = applyTransforms(
    { ...parsed.graph, readScope },
    {
      ...definedFields({
        goal: options.goal,
        vars: options.vars,
        transforms: options.transforms,
        readFile: options.readFile,
      }),
    },
  );
  const files = checkNamedFiles(transformed.graph, options.readFile);
  const lint = validate(transformed.graph, {
    ...definedFields({
      rules: options.rules,
      customHandlerTypes: options.customHandlerTypes,
      unknownTypes: options.unknownTypes,
    }),
  });
  return {
    graph: transformed.graph,
    diagnostics: [...parsed.diagnostics, ...transformed.diagnostics, ...files, ...lint],
  };
}

export interface CompiledPipeline extends LoadedPipeline {
  /** Plain, JSON-serialisable XState config (`attractor compile --format xstate`). */
  config: MachineConfig;
}

/**
 * Compile DOT source (or an already loaded graph) to the machine config that runs it.
 * Throws `PipelineValidationError` when validation finds errors.
 *
 * @example
 * const { graph, config } = compile('digraph { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit }');
 */
export function compile(input: string | PipelineGraph, options: LoadOptions = {}): CompiledPipeline {
  const loaded =
    typeof input === 'string'
      ? loadPipeline(input, options)
      : {
          graph: input,
          diagnostics: validate(input, {
            ...definedFields({
              rules: options.rules,
              customHandlerTypes: options.customHandlerTypes,
              unknownTypes: options.unknownTypes,
            }),
          }),
        };
  if (hasErrors(loaded.diagnostics)) throw new PipelineValidationError(loaded.diagnostics);
  return { ...loaded, config: lowerToMachineConfig(loaded.graph) };
}
