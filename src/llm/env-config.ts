import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Env = Record<string, string | undefined>;

/** One provider's settings as found in the environment; `apiKeyVariable` names the variable for error messages. */
export interface ProviderEnvConfig {
  apiKey?: string;
  baseURL?: string;
  apiKeyVariable: string;
}

export interface LLMEnvConfig {
  anthropic: ProviderEnvConfig;
  openai: ProviderEnvConfig & { organization?: string; project?: string };
  gemini: ProviderEnvConfig;
  /** Present only when OPENAI_COMPATIBLE_BASE_URL is set (there is no public default server). */
  openaiCompatible?: ProviderEnvConfig;
}

function value(env: Env, ...names: string[]): string | undefined {
  for (const name of names) {
    const found = env[name]?.trim();
    if (found) return found;
  }
  return undefined;
}

function provider(
  apiKeyVariable: string,
  apiKey: string | undefined,
  baseURL: string | undefined,
): ProviderEnvConfig {
  return { apiKeyVariable, ...(apiKey ? { apiKey } : {}), ...(baseURL ? { baseURL } : {}) };
}

/** Reads every provider's key and base URL. Missing keys are not an error here: they fail at the first call. */
export function readLLMEnvConfig(env: Env = process.env): LLMEnvConfig {
  const organization = value(env, 'OPENAI_ORG_ID');
  const project = value(env, 'OPENAI_PROJECT_ID');
  const compatibleURL = value(env, 'OPENAI_COMPATIBLE_BASE_URL');
  const geminiKeyVariable =
    value(env, 'GEMINI_API_KEY') || !value(env, 'GOOGLE_API_KEY') ? 'GEMINI_API_KEY' : 'GOOGLE_API_KEY';
  return {
    anthropic: provider(
      'ANTHROPIC_API_KEY',
      value(env, 'ANTHROPIC_API_KEY'),
      value(env, 'ANTHROPIC_BASE_URL'),
    ),
    openai: {
      ...provider('OPENAI_API_KEY', value(env, 'OPENAI_API_KEY'), value(env, 'OPENAI_BASE_URL')),
      ...(organization ? { organization } : {}),
      ...(project ? { project } : {}),
    },
    gemini: provider(
      geminiKeyVariable,
      value(env, 'GEMINI_API_KEY', 'GOOGLE_API_KEY'),
      value(env, 'GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'),
    ),
    ...(compatibleURL
      ? {
          openaiCompatible: provider(
            'OPENAI_COMPATIBLE_API_KEY',
            value(env, 'OPENAI_COMPATIBLE_API_KEY'),
            compatibleURL,
          ),
        }
      : {}),
  };
}

/**
 * Parses .env text: `KEY=value`, optional `export `, `#` comments, single or double quotes (double quotes
 * understand \n), inline ` #` comments after unquoted values.
 */
export function parseDotEnv(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const key = match[1]!;
    let raw = match[2]!;
    if (raw.startsWith('"') && raw.lastIndexOf('"') > 0) {
      raw = raw.slice(1, raw.lastIndexOf('"')).replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else if (raw.startsWith("'") && raw.lastIndexOf("'") > 0) {
      raw = raw.slice(1, raw.lastIndexOf("'"));
    } else {
      raw = raw.replace(/\s+#.*$/, '').trim();
    }
    result[key] = raw;
  }
  return result;
}

/**
 * The environment with a `.env` file's values added underneath: variables already set win, as with dotenv.
 * A missing file is not an error.
 */
export function loadDotEnv(cwd: string = process.cwd(), env: Env = process.env, fileName = '.env'): Env {
  const file = join(cwd, fileName);
  if (!existsSync(file)) return { ...env };
  const parsed = parseDotEnv(readFileSync(file, 'utf8'));
  const merged: Env = { ...parsed };
  for (const [key, val] of Object.entries(env)) if (val !== undefined) merged[key] = val;
  return merged;
}
