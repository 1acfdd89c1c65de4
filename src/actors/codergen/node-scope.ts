import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The pipeline node on whose behalf a model call runs. Calls are made deep inside agent sessions (and their
 * subagents) that know nothing of nodes; the run's cassette and usage records read it from here.
 */
const scope = new AsyncLocalStorage<string>();

export function runInNode<T>(nodeId: string, work: () => T): T {
  return scope.run(nodeId, work);
}

export function currentNode(): string | undefined {
  return scope.getStore();
}
