import type { HandlerServices } from '../actors/handler-types.js';

type Router = NonNullable<HandlerServices['llmRank']>;

/**
 * The router model of a case: for each node in `script`, the candidate to choose on its successive
 * visits (the last repeats; an `llm_decide` edge's target, or a branch a fan-in ranks); any other node
 * gets `fallback`'s choice. A scripted choice that is not among the candidates is no choice, so
 * routing falls back to the edges, as it does when a real router answers nonsense.
 */
export function createScriptedRouter(
  script: Readonly<Record<string, readonly string[]>>,
  fallback: Router,
): Router {
  const visits = new Map<string, number>();
  return async (request) => {
    const choices = request.nodeId === undefined ? undefined : script[request.nodeId];
    if (!choices || request.nodeId === undefined) return fallback(request);
    const visit = visits.get(request.nodeId) ?? 0;
    visits.set(request.nodeId, visit + 1);
    const choice = choices[Math.min(visit, choices.length - 1)];
    return choice !== undefined && request.candidates.includes(choice) ? choice : undefined;
  };
}
