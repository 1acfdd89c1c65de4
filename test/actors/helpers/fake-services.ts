import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodergenBackend } from '../../../src/actors/codergen-backend.js';
import type {
  BranchResult,
  ChildPipelineHandle,
  ContextValues,
  HandlerInput,
  HandlerServices,
} from '../../../src/actors/handler-types.js';
import type { Interviewer } from '../../../src/actors/interviewers/interviewer.js';
import { PipelineContext } from '../../../src/actors/pipeline-context.js';
import { createSimulatedBackend } from '../../../src/actors/simulated/simulated-backend.js';
import type { PipelineGraph, PipelineNode } from '../../../src/compiler/ir.js';

export interface RecordedEvent {
  kind: string;
  data: Record<string, unknown>;
  nodeId?: string;
}

export interface FakeServices extends HandlerServices {
  events: RecordedEvent[];
}

const unused = (name: string) => () => {
  throw new Error(`fake services: ${name} was not expected in this test`);
};

export function createFakeServices(overrides: Partial<HandlerServices> = {}): FakeServices {
  const events: RecordedEvent[] = [];
  const interviewer: Interviewer = { ask: unused('interviewer.ask') };
  const backend: CodergenBackend = createSimulatedBackend();
  return {
    events,
    emit: (kind, data, nodeId) => {
      events.push({ kind, data, ...(nodeId === undefined ? {} : { nodeId }) });
    },
    interviewer,
    backend,
    runBranch: unused('runBranch') as () => Promise<BranchResult>,
    startChildPipeline: unused('startChildPipeline') as () => ChildPipelineHandle,
    ...overrides,
  };
}

/** A temp run directory; call `cleanup()` in afterEach. */
export function makeRunDir(): { runDir: string; cleanup: () => void } {
  const runDir = mkdtempSync(join(tmpdir(), 'attractor-actors-'));
  return { runDir, cleanup: () => rmSync(runDir, { recursive: true, force: true }) };
}

export function makeInput(options: {
  node: PipelineNode;
  graph: PipelineGraph;
  runDir: string;
  services: HandlerServices;
  context?: ContextValues;
  signal?: AbortSignal;
  extra?: Partial<HandlerInput>;
}): HandlerInput {
  const stageDir = join(options.runDir, options.node.id);
  mkdirSync(stageDir, { recursive: true });
  return {
    node: options.node,
    graph: options.graph,
    context: new PipelineContext(options.context ?? {}, options.node.id),
    runDir: options.runDir,
    stageDir,
    fidelity: 'compact',
    attempt: 1,
    signal: options.signal ?? new AbortController().signal,
    services: options.services,
    ...options.extra,
  };
}
