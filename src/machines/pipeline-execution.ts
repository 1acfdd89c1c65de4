import { createActor, type InspectionEvent } from 'xstate';
import type { HandlerServices } from '../actors/handler-types.js';
import type { HandlerRegistry } from '../actors/registry.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import { CONTROL_STATES } from '../compiler/lower/state-keys.js';
import { bindRuntime, createHandlerActors, PIPELINE_SYSTEM_ID } from './handler-invocation.js';
import type { MachineEmitted, RunStatus } from './machine-events.js';
import type { PipelineMachineContext, PipelineMachineInput } from './pipeline-context.js';
import { createPipelineMachine, type PipelineMachine } from './pipeline-machine.js';
import { createGraphLookup, type GraphLookup } from './pipeline-runtime.js';
import type { Scenario } from './scenario.js';

export interface ExecutionOptions {
  graph: PipelineGraph;
  config: MachineConfig;
  runDir: string;
  registry: HandlerRegistry;
  services: HandlerServices;
  input: PipelineMachineInput;
  scenario?: Scenario;
  hardAbort: AbortSignal;
  onEmitted(event: MachineEmitted): void;
  inspect?: (event: InspectionEvent) => void;
  random?: () => number;
  lookup?: GraphLookup;
  workingDir?: string;
}

export interface Execution {
  done: Promise<{ status: Exclude<RunStatus, 'running'> | 'branch_done'; context: PipelineMachineContext }>;
  pause(): void;
  cancel(): void;
  steer(message: string): void;
  snapshot(): { context: PipelineMachineContext; value: unknown; status: string };
}

const FINAL: Record<string, Exclude<RunStatus, 'running'> | 'branch_done'> = {
  [CONTROL_STATES.completed]: 'completed',
  [CONTROL_STATES.failed]: 'failed',
  [CONTROL_STATES.paused]: 'paused',
  [CONTROL_STATES.cancelled]: 'cancelled',
  [CONTROL_STATES.branchDone]: 'branch_done',
};

const machines = new WeakMap<GraphLookup, PipelineMachine>();

/** Building a machine walks the whole config: parallel branches of one run share it. */
function machineFor(config: MachineConfig, lookup: GraphLookup, random?: () => number): PipelineMachine {
  if (random)
    return createPipelineMachine(config, { lookup, handlerActors: createHandlerActors(lookup), random });
  let machine = machines.get(lookup);
  if (!machine) {
    machine = createPipelineMachine(config, { lookup, handlerActors: createHandlerActors(lookup) });
    machines.set(lookup, machine);
  }
  return machine;
}

/** Start one pipeline actor (a whole run, a parallel branch or a child pipeline) and watch it end. */
export function startExecution(options: ExecutionOptions): Execution {
  const lookup = options.lookup ?? createGraphLookup(options.graph);
  const machine = machineFor(options.config, lookup, options.random);
  const actor = createActor(machine, {
    input: options.input,
    systemId: PIPELINE_SYSTEM_ID,
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  bindRuntime(actor.system, {
    steps: 0,
    lookup,
    registry: options.registry,
    runDir: options.runDir,
    services: options.services,
    hardAbort: options.hardAbort,
    ...(options.workingDir ? { workingDir: options.workingDir } : {}),
    ...(options.scenario ? { scenario: options.scenario } : {}),
  });
  actor.on('*', (emitted) => options.onEmitted(emitted as MachineEmitted));

  const done = new Promise<Awaited<Execution['done']>>((resolve, reject) => {
    actor.subscribe({
      next(snapshot) {
        if (snapshot.status !== 'done') return;
        const status = FINAL[String(snapshot.value)] ?? 'failed';
        resolve({ status, context: snapshot.context });
      },
      error(error) {
        reject(error);
      },
    });
  });
  actor.start();
  return {
    done,
    pause: () => actor.send({ type: 'PAUSE' }),
    cancel: () => actor.send({ type: 'CANCEL' }),
    steer: (message) => actor.send({ type: 'STEER', message }),
    snapshot: () => {
      const s = actor.getSnapshot();
      return { context: s.context, value: s.value, status: s.status };
    },
  };
}
