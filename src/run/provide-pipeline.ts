import type { PipelineGraph } from '../compiler/ir.js';
import type { MachineConfig } from '../compiler/lower/machine-config.js';
import { bindServices, type CompiledMachine, machineFromConfig } from '../machines/compile-machine.js';
import type { PipelineMachine } from '../machines/pipeline-machine.js';
import type { PipelineServices } from '../machines/pipeline-services.js';
import { fileChildPipelines } from './child-checkpoint.js';
import { FileStageStore } from './stage-records.js';

/** The stores of a run directory, under what `services` gives. */
function withFileStores(services: PipelineServices): PipelineServices {
  return { stages: new FileStageStore(), childPipelines: fileChildPipelines, ...services };
}

/**
 * The compiled machine with its handler actors bound to `services`, so that
 * `createActor(providePipeline(compiled, services), { input })` runs the pipeline, its parallel branches
 * and child pipelines as actors of one actor system. Node visits are recorded in the run directory of
 * the actor's input (stage folders, `status.json`) unless `services` gives other stores.
 *
 * @example
 * const compiled = compileMachine(source);
 * const actor = createActor(providePipeline(compiled, { backend, interviewer }), {
 *   input: pipelineInput(compiled, { runDir: '/tmp/my-run' }),
 * }).start();
 */
export function providePipeline(compiled: CompiledMachine, services: PipelineServices = {}): PipelineMachine {
  return bindServices(compiled, withFileStores(services));
}

/**
 * The published implementations (guards, actions, handler actors) attached to a plain config, such as
 * the JSON `attractor compile --format xstate` prints; `graph` is the pipeline it was lowered from
 * (routing reads its edges). Recorded like `providePipeline`'s.
 *
 * @example
 * const { graph } = loadPipeline(source);
 * const machine = createPipelineMachine(JSON.parse(printedConfig), graph, { backend, interviewer });
 */
export function createPipelineMachine(
  config: MachineConfig,
  graph: PipelineGraph,
  services: PipelineServices = {},
): PipelineMachine {
  return machineFromConfig(config, graph, withFileStores(services));
}
