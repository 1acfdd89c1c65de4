import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { RealRunServices } from '../actors/codergen/real-run-services.js';
import { AutoApproveInterviewer } from '../actors/interviewers/auto-approve.js';
import { Scenario } from '../actors/simulated/scenario.js';
import { startPipeline } from '../run/engine.js';
import { createRunServices } from '../run/run-services.js';
import type { RunResult } from '../run/run-types.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';
import { checkExpectations } from './check-expectations.js';
import type { CompiledCase } from './compiled-case.js';
import { observeRun, type RunObservation } from './run-observation.js';
import { createScriptedRouter } from './scripted-router.js';
import type { TestCase } from './test-file-schema.js';
import { unknownCaseNodes } from './unknown-case-nodes.js';

const DEFAULT_CASE_TIMEOUT_MS = 60_000;

/** How one case went: its failures (none: it passed), the route it took, what coverage counts. */
export interface CaseResult {
  name: string;
  passed: boolean;
  failures: string[];
  durationMs: number;
  observation: RunObservation;
  status?: RunResult['status'];
}

export interface CaseRunSettings {
  /** How tool commands are sandboxed (default: the engine's, on where this machine has a sandbox). */
  sandbox?: SandboxSettings;
  /** Evaluate every conditional edge where its node routes (for coverage). */
  conditions?: boolean;
  /** A case still running after this long is cancelled and fails (default 60 s). */
  timeoutMs?: number;
  /** Where the cases' folders are made (default: the system's temp folder). */
  tempRoot?: string;
}

/** A replaying model for a case with a cassette: never a provider (no key is passed, none is read). */
async function replayServices(
  compiled: CompiledCase,
  cassette: string,
  workingDir: string,
): Promise<RealRunServices> {
  if (!existsSync(cassette) || !statSync(cassette).isFile())
    throw new AttractorError('PIPELINE_TEST_CASSETTE', `cannot read cassette ${cassette}.`);
  const { createRealRunServices } = await import('../actors/codergen/real-run-services.js');
  return createRealRunServices(compiled.compiled.graph, { workingDir, env: {}, replayFrom: cassette });
}

function seedFiles(workingDir: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    const target = join(workingDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

function readWorkingFile(workingDir: string, path: string): string | undefined {
  const target = join(workingDir, path);
  return existsSync(target) && statSync(target).isFile() ? readFileSync(target, 'utf8') : undefined;
}

async function executeCase(
  compiled: CompiledCase,
  testCase: TestCase,
  folder: string,
  settings: CaseRunSettings,
  observe: ReturnType<typeof observeRun>,
): Promise<{ result: RunResult; timedOut: boolean }> {
  const workingDir = join(folder, 'work');
  mkdirSync(workingDir);
  seedFiles(workingDir, testCase.files ?? {});
  const scenario = new Scenario({ nodes: testCase.nodes, answers: testCase.answers });
  const replay = testCase.cassette
    ? await replayServices(compiled, resolve(dirname(compiled.testFile), testCase.cassette), workingDir)
    : undefined;
  const { llmRank, ...services } = replay
    ? { backend: replay.backend, llmRank: replay.llmRank, accounting: replay.accounting }
    : createRunServices({ graph: compiled.compiled.graph, scenario });
  const run = startPipeline({
    ...services,
    ...(llmRank ? { llmRank: createScriptedRouter(testCase.router, llmRank) } : {}),
    source: compiled.source,
    file: compiled.pipelineFile,
    compiled: compiled.compiled,
    ...definedFields({ goal: testCase.goal, vars: testCase.set }),
    scenario,
    // Gates the case does not answer take their first option, as in a dry run.
    interviewer: new AutoApproveInterviewer(),
    runDir: join(folder, 'run'),
    workingDir,
    durable: false,
    ...definedFields({ sandbox: settings.sandbox }),
    ...(testCase.max_steps ? { maxSteps: testCase.max_steps } : {}),
    onEvent: (event) => {
      if (event.kind === 'pipeline.start') replay?.setRunDir(event.data.run_dir);
      observe.onEvent(event);
    },
    ...definedFields({ inspect: observe.inspect }),
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    run.cancel();
  }, settings.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS);
  try {
    return { result: await run.result, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one case offline — its scenario's outcomes and answers, the simulated model or its cassette's
 * replay — in a folder of its own (the run directory and the working folder, removed after), then
 * checks what it expects.
 */
export async function runTestCase(
  compiled: CompiledCase,
  testCase: TestCase,
  settings: CaseRunSettings = {},
): Promise<CaseResult> {
  const started = performance.now();
  const observe = observeRun(compiled.compiled.graph, { conditions: settings.conditions === true });
  const finish = (failures: string[], status?: RunResult['status']): CaseResult => ({
    name: testCase.name,
    passed: failures.length === 0,
    failures,
    durationMs: performance.now() - started,
    observation: observe.observation,
    ...definedFields({ status }),
  });
  const unknown = unknownCaseNodes(testCase, compiled.nodeIds);
  if (unknown.length > 0) return finish(unknown);
  const folder = mkdtempSync(join(settings.tempRoot ?? tmpdir(), 'attractor-test-'));
  try {
    const { result, timedOut } = await executeCase(compiled, testCase, folder, settings, observe);
    const readFile = (path: string) => readWorkingFile(join(folder, 'work'), path);
    const failures = checkExpectations(testCase.expect, {
      result,
      observation: observe.observation,
      readFile,
    });
    if (timedOut)
      failures.unshift(`timed out: still running after ${settings.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS} ms`);
    return finish(failures, result.status);
  } catch (error) {
    // Bad input of the case's (a cassette that is not one, a parameter the pipeline lacks) fails the
    // case; anything else is a bug, and the command says so.
    if (!AttractorError.isInstance(error)) throw error;
    return finish([`the run could not start: ${error.describe()}`]);
  } finally {
    // On the thread pool: removing a run's hundreds of files synchronously would stall the other cases.
    // Retried: the run's last writes may still be landing in a folder being removed (ENOTEMPTY); a
    // temporary folder left behind is not the case's failure.
    await rm(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }).catch(() => {});
  }
}
