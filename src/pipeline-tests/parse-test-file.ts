import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import type { TextPosition } from '../actors/simulated/scenario-key-locations.js';
import { AttractorError } from '../shared/errors.js';
import { jsonSyntaxErrorOffset } from './json-syntax-error-offset.js';
import { locateYamlPath } from './locate-yaml-path.js';
import { type PipelineTestFile, PipelineTestFileSchema } from './test-file-schema.js';

const EXPECTED_SHAPE =
  'A test file is {"pipeline": "<file.dot>", "cases": [{"name", "nodes"?, "answers"?, "router"?, "files"?, "cassette"?, "expect": {"route"?, "visits"?, "not_visits"?, "status"?, "quality"?, "context"?, "files"?, "cost"?}}]} (docs/guides/testing-pipelines.md).';

const invalid = (file: string, position: TextPosition, message: string): AttractorError =>
  new AttractorError('PIPELINE_TEST_INVALID', `${message} ${EXPECTED_SHAPE}`, {
    location: { file, ...position },
  });

/** Line and column of a character offset in `text`, 1-based. */
function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** JSON is held to JSON's own grammar (YAML would accept a trailing comma); its error names the place. */
function checkJsonSyntax(text: string, file: string): void {
  const offset = jsonSyntaxErrorOffset(text);
  if (offset === undefined) return;
  const found = text.charAt(offset);
  const what = found === '' ? 'the text ends too soon' : `unexpected ${JSON.stringify(found)}`;
  throw invalid(file, positionAt(text, offset), `not valid JSON (${what}).`);
}

/** The issue in words, and where it is written: the path to its value, or to a key of the object there. */
function describeIssue(issue: z.core.$ZodIssue): { message: string; path: PropertyKey[]; key?: string } {
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return {
      message: `${where}unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}.`,
      path: issue.path,
      ...(issue.keys[0] ? { key: issue.keys[0] } : {}),
    };
  }
  if (issue.code === 'invalid_key') {
    const key = issue.path.at(-1);
    const why = issue.issues.map((inner) => inner.message).join('; ');
    return {
      message: `${where}${why || issue.message}.`,
      path: issue.path.slice(0, -1),
      ...(typeof key === 'string' ? { key } : {}),
    };
  }
  return { message: `${where}${issue.message}.`, path: issue.path };
}

/**
 * A pipeline test file parsed and checked against its one schema. `file` names it in errors, which say
 * where (`file:line:col`) the first problem is written. JSON files are parsed as JSON, `.yaml`/`.yml`
 * files as YAML; both are located by the same YAML parser (JSON is YAML).
 *
 * @example
 * const tests = parsePipelineTestFile(readFileSync('tour.test.yaml', 'utf8'), 'tour.test.yaml');
 * tests.cases[0]?.expect.route; // ['start', 'plan', …]
 */
export function parsePipelineTestFile(text: string, file: string): PipelineTestFile {
  if (file.endsWith('.json')) checkJsonSyntax(text, file);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntax = doc.errors[0];
  if (syntax) {
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    throw invalid(file, { line, column: col }, `not valid YAML (${syntax.message.split('\n')[0]}).`);
  }
  const parsed = PipelineTestFileSchema.safeParse(doc.toJS());
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (!issue) throw invalid(file, { line: 1, column: 1 }, 'invalid test file.');
  const { message, path, key } = describeIssue(issue);
  throw invalid(file, locateYamlPath(doc, lineCounter, path, key), message);
}
