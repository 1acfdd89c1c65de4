import { readFileSync, statSync } from 'node:fs';
import * as z from 'zod';
import type { Outcome } from '../../compiler/outcome.js';
import { AttractorError, type SourceSpan } from '../../shared/errors.js';
import { StatusFileSchema, statusFileToOutcome } from '../status-file.js';
import { scenarioKeyLocations, type TextPosition } from './scenario-key-locations.js';

/** The `--scenario` file (docs/semantics.md): scripted outcomes per node and answers per human gate. */
export const ScenarioSchema = z
  .object({
    nodes: z.record(z.string(), z.array(StatusFileSchema).min(1)).default({}),
    answers: z.record(z.string(), z.array(z.string()).min(1)).default({}),
  })
  .strict();
export type ScenarioFile = z.infer<typeof ScenarioSchema>;

/**
 * A loaded scenario with its visit counters. Visits count across the whole process (loop restarts and
 * resumes within it included); when a list runs out, its last entry repeats.
 */
export class Scenario {
  readonly #file: ScenarioFile;
  readonly #visits = new Map<string, number>();
  readonly #answered = new Map<string, number>();
  readonly #source: { path?: string; text?: string };
  #keys: Map<string, TextPosition> | undefined;

  /** `source`: the file it was read from (its path as shown to the user, and its text), to locate warnings. */
  constructor(file: ScenarioFile, source: { path?: string; text?: string } = {}) {
    this.#file = file;
    this.#source = source;
  }

  /** Where a scripted node id is written in the scenario file (`file:line:col`, as far as it is known). */
  locationOf(nodeId: string): SourceSpan | undefined {
    const { path, text } = this.#source;
    if (path === undefined) return undefined;
    this.#keys ??= text === undefined ? new Map() : scenarioKeyLocations(text);
    // Without a place in the file, its first line: a location always names the file.
    return { file: path, ...(this.#keys.get(nodeId) ?? { line: 1, column: 1 }) };
  }

  /** The scripted outcome for this visit of `nodeId`, or undefined when the node runs normally. */
  nextOutcome(nodeId: string): Outcome | undefined {
    const list = this.#file.nodes[nodeId];
    if (!list) return undefined;
    const visit = this.#visits.get(nodeId) ?? 0;
    this.#visits.set(nodeId, visit + 1);
    const entry = list[Math.min(visit, list.length - 1)];
    return entry ? statusFileToOutcome(entry) : undefined;
  }

  /** The scripted answer (an accelerator key or a label) for this visit of a human gate. */
  nextAnswer(nodeId: string): string | undefined {
    const list = this.#file.answers[nodeId];
    if (!list) return undefined;
    const visit = this.#answered.get(nodeId) ?? 0;
    this.#answered.set(nodeId, visit + 1);
    return list[Math.min(visit, list.length - 1)];
  }

  /** Node ids the scenario scripts (outcomes and answers), to check them against the graph. */
  scriptedNodeIds(): string[] {
    return [...new Set([...Object.keys(this.#file.nodes), ...Object.keys(this.#file.answers)])];
  }

  hasAnswers(nodeId: string): boolean {
    return this.#file.answers[nodeId] !== undefined;
  }
}

/** `file` names the scenario in messages and warnings (as the user typed it, preferably). */
export function parseScenario(text: string, file = '<scenario>'): Scenario {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AttractorError('SCENARIO_INVALID', `${file}: not valid JSON (${(error as Error).message}).`);
  }
  const parsed = ScenarioSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new AttractorError(
      'SCENARIO_INVALID',
      `${file}: invalid scenario${where}: ${issue?.message ?? 'unknown problem'}. Expected {"nodes": {"<node>": [{"outcome": "success"}]}, "answers": {"<gate>": ["A"]}}.`,
    );
  }
  return new Scenario(parsed.data, file === '<scenario>' ? {} : { path: file, text });
}

/** `shownAs`: the path as the user typed it, for messages and warnings (default `path`). */
export function loadScenario(path: string, shownAs = path): Scenario {
  let text: string;
  try {
    // Only regular files: a device such as /dev/zero would be read for ever.
    if (!statSync(path).isFile()) throw new Error('not a file');
    text = readFileSync(path, 'utf8');
  } catch {
    throw new AttractorError('SCENARIO_NOT_FOUND', `cannot read scenario file ${shownAs}.`);
  }
  return parseScenario(text, shownAs);
}
