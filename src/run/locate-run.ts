import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { readCheckpoint } from './checkpoint.js';

/** Locate the checkpoint, its run directory and the DOT source for a resume (also --pipeline-dot, and a timestamped copy from --checkpoint-dir). */
export function locateRun(
  from: string,
  dotFile?: string,
): { checkpointPath: string; runDir: string; source: string; file: string } {
  const path = resolve(from);
  if (!existsSync(path))
    throw new AttractorError('RESUME_NOT_FOUND', `nothing to resume at ${from}: no such file or directory.`);
  const isDir = statSync(path).isDirectory();
  const checkpointPath = isDir ? join(path, 'checkpoint.json') : path;
  if (!existsSync(checkpointPath)) {
    throw new AttractorError('RESUME_NOT_FOUND', `${from} has no checkpoint.json: is it a run directory?`);
  }
  // A timestamped copy from --checkpoint-dir names its run directory; checkpoint.json lives in it.
  const recorded = isDir || basename(path) === 'checkpoint.json' ? undefined : readCheckpoint(path).run_dir;
  const runDir = isDir ? path : recorded && existsSync(recorded) ? recorded : dirname(path);
  const file = dotFile ? resolve(dotFile) : join(runDir, 'pipeline.dot');
  if (!existsSync(file)) {
    throw new AttractorError(
      'RESUME_NO_PIPELINE',
      `cannot find the pipeline for ${basename(checkpointPath)}: ${file} is missing; pass the DOT file with --pipeline-dot.`,
    );
  }
  // The copy's text is what ran, but relative paths in it (child pipelines, `@file` prompts) were written
  // against the original file's folder: resolve them there, as the first run did.
  const original = dotFile ? undefined : originalSourceFile(runDir);
  return { checkpointPath, runDir, source: readFileSync(file, 'utf8'), file: original ?? file };
}

function originalSourceFile(runDir: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as {
      source_file?: unknown;
    };
    return typeof manifest.source_file === 'string' ? resolve(manifest.source_file) : undefined;
  } catch {
    return undefined;
  }
}
