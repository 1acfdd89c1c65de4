import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AutoApproveInterviewer } from '../../src/actors/interviewers/auto-approve.js';
import { parseScenario } from '../../src/actors/simulated/scenario.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { startPipeline } from '../../src/run/engine.js';
import type { RunOptions, RunResult } from '../../src/run/run-types.js';
import { type EventKind, isEvent, type PipelineEvent } from '../../src/shared/pipeline-event.js';
import { tempDir as makeTempDir } from './temp-dir.js';

/** A temp folder removed after the test (run directories by default). */
export const tempDir = (prefix = 'attractor-run-'): string => makeTempDir(prefix);

export interface TestRun {
  result: RunResult;
  events: PipelineEvent[];
  kinds: string[];
  /** Node ids of node.start events, in order (excluding branch/child events unless asked). */
  visited: string[];
  /** The run directory (`runDir` when given, else the default layout under a temp root). */
  runDir: string;
}

export async function runDot(
  source: string,
  options: RunOptions & { scenarioJson?: unknown; file?: string } = {},
): Promise<TestRun> {
  const where = options.runDir !== undefined ? {} : { runsRoot: options.runsRoot ?? tempDir() };
  const events: PipelineEvent[] = [];
  const { scenarioJson, ...rest } = options;
  // Tests simulate the LLM and approve gates on purpose; the engine itself never defaults to either.
  const run = startPipeline({
    durable: false,
    backend: createSimulatedBackend(),
    interviewer: new AutoApproveInterviewer(),
    ...rest,
    source,
    ...where,
    ...(scenarioJson ? { scenario: parseScenario(JSON.stringify(scenarioJson)) } : {}),
    onEvent: (e) => {
      events.push(e);
      options.onEvent?.(e);
    },
  });
  const result = await run.result;
  return {
    result,
    events,
    kinds: events.map((e) => e.kind),
    visited: events
      .filter((e) => e.kind === 'node.start' && !e.data['branch'] && !e.data['parent'])
      .map((e) => e.node_id ?? ''),
    runDir: result.runDir,
  };
}

/** The events of one kind, typed by it, and of one node when `nodeId` is given. */
export function eventsOf<K extends EventKind>(
  events: readonly PipelineEvent[],
  kind: K,
  nodeId?: string,
): Extract<PipelineEvent, { kind: K }>[] {
  return events.filter((e) => isEvent(e, kind)).filter((e) => nodeId === undefined || e.node_id === nodeId);
}

/** The first event of one kind (of one node when `nodeId` is given), typed by its kind. */
export function eventOf<K extends EventKind>(
  events: readonly PipelineEvent[],
  kind: K,
  nodeId?: string,
): Extract<PipelineEvent, { kind: K }> | undefined {
  return eventsOf(events, kind, nodeId)[0];
}

export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

export function readEvents(runDir: string): PipelineEvent[] {
  return readFileSync(join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as PipelineEvent);
}
