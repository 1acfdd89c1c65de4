import { type LLMClient, LLMError, Message } from '../../llm/index.js';
import type { HandlerServices } from '../handler-types.js';
import type { ProviderStatus } from './configured-providers.js';
import { describeModelFailure } from './describe-model-failure.js';
import { runInNode } from './node-scope.js';
import { type ModelChoice, resolveModel } from './resolve-model.js';
import type { UsageLedger } from './usage-ledger.js';

export interface LlmRouterOptions {
  client: LLMClient;
  /** The graph's `router_model`, else the run's defaults. */
  choice: ModelChoice;
  providers: readonly ProviderStatus[];
  ledger: UsageLedger;
}

type Rank = NonNullable<HandlerServices['llmRank']>;

const INSTRUCTIONS =
  'You route an automated pipeline. Reply with exactly one of the candidate ids listed, and nothing else.';

/** The candidate the answer names: the whole answer, else the longest candidate it mentions. */
export function pickCandidate(answer: string, candidates: readonly string[]): string | undefined {
  const text = answer.trim().replace(/^["'`]+|["'`.]+$/g, '');
  const exact =
    candidates.find((c) => c === text) ?? candidates.find((c) => c.toLowerCase() === text.toLowerCase());
  if (exact) return exact;
  return [...candidates].sort((a, b) => b.length - a.length).find((c) => text.includes(c));
}

/**
 * The real router of `llm_decide` edges and fan-in ranking: one model call through the run's client (so it is
 * recorded, replayed and booked like the agents' calls). Its calls and failures are pipeline events; a failure
 * is thrown, and the engine falls back to ordinary edge selection, never to a simulated choice.
 */
export function createLlmRouter(options: LlmRouterOptions): Rank {
  const resolved = resolveModel(options.choice, options.providers);
  return async ({ nodeId, emit, prompt, candidates, signal }) => {
    const node = nodeId ?? 'router';
    if (!resolved.model || !resolved.provider) {
      throw new LLMError('llm.configuration', 'no router model: set router_model or a provider key');
    }
    const call = async () => {
      try {
        const startedAt = Date.now();
        const response = await options.client.complete(
          {
            model: resolved.model!,
            provider: resolved.provider!,
            messages: [
              Message.system(INSTRUCTIONS),
              Message.user(`${prompt}\n\nCandidate ids:\n${candidates.map((c) => `- ${c}`).join('\n')}`),
            ],
            maxTokens: 64,
          },
          { signal },
        );
        const cost = options.ledger.record({ nodeId: node, model: response.model, usage: response.usage });
        emit?.(
          'agent.usage',
          {
            model: response.model,
            provider: response.provider,
            usage: response.usage,
            cost_usd: cost,
            duration_ms: Date.now() - startedAt,
            phase: 'router',
          },
          node,
        );
        const choice = pickCandidate(response.text, candidates);
        emit?.(
          'router.decision',
          { model: response.model, answer: response.text, choice: choice ?? null, candidates },
          node,
        );
        return choice;
      } catch (error) {
        if (signal.aborted) throw error;
        const e = error as { message?: string; code?: string; provider?: string };
        const reason = describeModelFailure(
          {
            message: e.message ?? String(error),
            ...(e.code ? { code: e.code } : {}),
            ...(e.provider ? { provider: e.provider } : {}),
          },
          resolved.provider,
          options.providers,
        );
        emit?.('router.error', { model: resolved.model, error: reason }, node);
        throw error;
      }
    };
    return nodeId ? runInNode(nodeId, call) : call();
  };
}
