export type TruncationMode = 'head_tail' | 'tail';

/** Per-tool overrides; a tool missing from a map keeps its default. */
export interface TruncationLimits {
  charLimits?: Record<string, number>;
  truncationModes?: Record<string, TruncationMode>;
  lineLimits?: Record<string, number>;
}

/** Stage 1 defaults: characters kept and how. */
export const DEFAULT_CHAR_LIMITS: Readonly<Record<string, number>> = {
  read_file: 50_000,
  /** Ours (not in the table above): several files read at once get read_file's budget, not more. */
  read_many_files: 50_000,
  shell: 30_000,
  grep: 20_000,
  glob: 20_000,
  list_dir: 20_000,
  spawn_agent: 20_000,
  edit_file: 10_000,
  apply_patch: 10_000,
  write_file: 1_000,
};

export const DEFAULT_TRUNCATION_MODES: Readonly<Record<string, TruncationMode>> = {
  read_file: 'head_tail',
  read_many_files: 'head_tail',
  shell: 'head_tail',
  grep: 'tail',
  glob: 'tail',
  list_dir: 'tail',
  spawn_agent: 'head_tail',
  edit_file: 'tail',
  apply_patch: 'tail',
  write_file: 'tail',
};

/** Stage 2 defaults (after the characters): lines kept. Tools not listed have no line limit. */
export const DEFAULT_LINE_LIMITS: Readonly<Record<string, number>> = {
  shell: 256,
  grep: 200,
  glob: 500,
  list_dir: 500,
};

/**
 * Tools with no limit of their own (custom tools, the other subagent tools) still cannot flood the context:
 * they get the most generous built-in stage-1 limit.
 */
export const FALLBACK_CHAR_LIMIT = 50_000;
export const FALLBACK_TRUNCATION_MODE: TruncationMode = 'head_tail';

export interface ResolvedLimits {
  charLimit: number;
  mode: TruncationMode;
  lineLimit: number | undefined;
}

export function resolveLimits(toolName: string, config: TruncationLimits = {}): ResolvedLimits {
  return {
    charLimit: config.charLimits?.[toolName] ?? DEFAULT_CHAR_LIMITS[toolName] ?? FALLBACK_CHAR_LIMIT,
    mode:
      config.truncationModes?.[toolName] ?? DEFAULT_TRUNCATION_MODES[toolName] ?? FALLBACK_TRUNCATION_MODE,
    lineLimit: config.lineLimits?.[toolName] ?? DEFAULT_LINE_LIMITS[toolName],
  };
}
