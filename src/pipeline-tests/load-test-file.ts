import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { parsePipelineTestFile } from './parse-test-file.js';
import type { PipelineTestFile } from './test-file-schema.js';

/** A test file read and checked, with the pipeline it names. */
export interface LoadedTestFile {
  /** Absolute path, and as the user named it (for messages and reports). */
  path: string;
  shownAs: string;
  tests: PipelineTestFile;
  /** The pipeline's DOT file, absolute, and its source. */
  pipelineFile: string;
  source: string;
}

function readRegularFile(path: string, what: string): string {
  try {
    // Only regular files: a FIFO or a device would be read for ever.
    if (!statSync(path).isFile()) throw new Error('not a file');
    return readFileSync(path, 'utf8');
  } catch {
    throw new AttractorError('PIPELINE_TEST_NOT_FOUND', `cannot read ${what} ${path}.`);
  }
}

/** Reads a test file and the pipeline it names (relative to the test file); bad input throws one paragraph. */
export function loadPipelineTestFile(path: string, shownAs = path): LoadedTestFile {
  const tests = parsePipelineTestFile(readRegularFile(path, 'test file'), shownAs);
  const pipelineFile = resolve(dirname(path), tests.pipeline);
  const source = readRegularFile(pipelineFile, `the pipeline ${tests.pipeline} that ${shownAs} names:`);
  return { path: resolve(path), shownAs, tests, pipelineFile, source };
}
