import { readFileSync } from 'node:fs';
import { RecordMiddleware, ReplayMiddleware, type Request } from '../../llm/index.js';
import { type CassetteEntry, parseCassette } from '../../llm/middleware/cassette.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { AttractorError } from '../../shared/errors.js';
import { currentNode } from './node-scope.js';

/** Machine-specific directories of a run; the run directory is known once the run has started. */
export interface RunPaths {
  workingDir: string;
  runDir?: string;
}

const WORKDIR = '{{workdir}}';
const RUN_DIR = '{{run_dir}}';

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = mapStrings(inner, map);
    return out;
  }
  return value;
}

/** Keys whose values describe one machine's moment, not the exchange: replays must not depend on them. */
const VOLATILE_KEYS = new Set(['latencyMs']);

function withoutVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value))
      if (!VOLATILE_KEYS.has(key)) out[key] = withoutVolatile(inner);
    return out;
  }
  return value;
}

/** This machine's paths → placeholders (the run directory first: it usually lies inside the working directory). */
function toPlaceholders(paths: RunPaths) {
  return (text: string) => {
    let out = text;
    if (paths.runDir) out = out.split(paths.runDir).join(RUN_DIR);
    return out.split(paths.workingDir).join(WORKDIR);
  };
}

function fromPlaceholders(paths: RunPaths) {
  return (text: string) => {
    let out = text.split(WORKDIR).join(paths.workingDir);
    if (paths.runDir) out = out.split(RUN_DIR).join(paths.runDir);
    return out;
  };
}

/**
 * What must match between a recorded and a live request: everything but the system prompt, which carries the
 * date, the git status and the run's own paths, all of which legitimately differ between two runs.
 */
function matchKey(paths: RunPaths) {
  return (request: Request): unknown => {
    const { systemPrompt: _volatile, ...rest } = request;
    return mapStrings(rest, toPlaceholders(paths));
  };
}

/**
 * `attractor run --record FILE`: every model exchange of the run (all nodes, subagents, router calls) in one
 * JSONL cassette, each entry naming its node, paths turned into placeholders so another machine can replay it.
 * The file is rewritten atomically after each call, so an interrupted run leaves a valid cassette.
 */
export function createRunRecorder(file: string, paths: RunPaths): RecordMiddleware {
  const recorder: RecordMiddleware = new RecordMiddleware({
    caller: currentNode,
    transform: (entry) => mapStrings(withoutVolatile(entry), toPlaceholders(paths)) as CassetteEntry,
    write: () => {
      const text = recorder.entries.map((entry) => JSON.stringify(entry)).join('\n');
      writeFileAtomic(file, `${text}\n`, { durable: false });
    },
  });
  return recorder;
}

/**
 * `attractor run --replay FILE`: answers every model call from the cassette, with no key and no network. A call
 * that differs from the recording fails naming its node and the first differing field.
 */
export function createRunReplayer(
  file: string,
  paths: RunPaths,
): ReplayMiddleware & { recordedProviders(): Set<string> } {
  let entries: CassetteEntry[];
  try {
    entries = parseCassette(readFileSync(file, 'utf8'), file);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new AttractorError('CASSETTE_INVALID', `cannot replay ${file}: ${detail}`, { cause: error });
  }
  const replayer = new ReplayMiddleware({
    entries,
    caller: currentNode,
    matchKey: matchKey(paths),
    transform: (entry) => mapStrings(entry, fromPlaceholders(paths)) as CassetteEntry,
  });
  const providers = new Set(entries.map((entry) => entry.request.provider).filter((p) => p !== undefined));
  return Object.assign(replayer, { recordedProviders: () => providers });
}
