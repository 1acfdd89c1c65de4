import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { AttractorError } from '../shared/errors.js';

/** `<name>.test.json`, `<name>.test.yaml` or `<name>.test.yml`. */
export const TEST_FILE_PATTERN = /\.test\.(json|ya?ml)$/;
const TEST_FILE_EXTENSIONS = ['json', 'yaml', 'yml'];

/** Folders a search never enters: dependencies, version control, run records. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.attractor-runs', 'dist']);

function walk(folder: string, found: string[]): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.'))
      walk(path, found);
    else if (entry.isFile() && TEST_FILE_PATTERN.test(entry.name)) found.push(path);
  }
}

/** The test files next to a pipeline `name.dot`: `name.test.json`, `.yaml`, `.yml`. */
function testFilesOf(dotFile: string): string[] {
  const stem = join(dirname(dotFile), basename(dotFile, '.dot'));
  return TEST_FILE_EXTENSIONS.map((ext) => `${stem}.test.${ext}`).filter((path) => existsSync(path));
}

function filesOf(argument: string, cwd: string): string[] {
  const path = resolve(cwd, argument);
  if (!existsSync(path))
    throw new AttractorError('PIPELINE_TEST_NOT_FOUND', `${argument}: no such file or folder.`);
  if (statSync(path).isDirectory()) {
    const found: string[] = [];
    walk(path, found);
    return found;
  }
  if (TEST_FILE_PATTERN.test(path)) return [path];
  if (path.endsWith('.dot')) {
    const found = testFilesOf(path);
    if (found.length === 0)
      throw new AttractorError(
        'PIPELINE_TEST_NOT_FOUND',
        `${argument}: no test file next to it (${basename(path, '.dot')}.test.json or .test.yaml).`,
      );
    return found;
  }
  throw new AttractorError(
    'PIPELINE_TEST_NOT_FOUND',
    `${argument}: neither a folder, a pipeline (.dot) nor a test file (<name>.test.json or .test.yaml).`,
  );
}

/**
 * The test files `paths` name (the working directory when none): folders searched recursively for
 * `<name>.test.json|yaml|yml`, a pipeline `name.dot` standing for the test files next to it. Sorted,
 * each once, with the path to show (relative to `cwd`).
 */
export function findTestFiles(paths: readonly string[], cwd: string): { path: string; shownAs: string }[] {
  const all = (paths.length > 0 ? paths : ['.']).flatMap((argument) => filesOf(argument, cwd));
  return [...new Set(all)].sort().map((path) => ({ path, shownAs: relative(cwd, path) || path }));
}
