import type { CodergenBackend, CodergenRequest, CodergenResult } from '../codergen-backend.js';

/**
 * The backend of `--dry-run` and of tests: deterministic, no network. It describes the node it was
 * asked to run and succeeds, so a pipeline's routing can be exercised without a model.
 *
 * @example
 * const result = await createSimulatedBackend().run(request);
 * result.response // '[simulated] plan: Write a plan for the feature'
 */
export function createSimulatedBackend(): CodergenBackend {
  return {
    name: 'simulated',
    async run(request: CodergenRequest): Promise<CodergenResult> {
      request.signal.throwIfAborted();
      const firstLine = request.prompt.trim().split('\n', 1)[0] ?? '';
      return {
        response: `[simulated] ${request.node.id}: ${firstLine}`,
        outcome: { status: 'success', notes: `Simulated stage: ${request.node.id}` },
      };
    },
  };
}
