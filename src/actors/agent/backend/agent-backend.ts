import type { LLMClient, TokenUsage } from '../../../llm/index.js';
import type { CodergenBackend, CodergenRequest, CodergenResult } from '../../codergen-backend.js';
import { watchSteering } from '../../steering-file.js';
import { LocalExecutionEnvironment } from '../environment/local-execution-environment.js';
import { getProfile } from '../profiles/get-profile.js';
import { type AgentEvent, AgentEventKind } from '../session/agent-event.js';
import { createSession } from '../session/session.js';
import type { SessionConfigInput } from '../session/session-config.js';
import type { Turn } from '../session/turn.js';
import type { ProviderStatus } from './configured-providers.js';
import { describeModelFailure } from './describe-model-failure.js';
import { runInNode } from './node-scope.js';
import { type ModelChoice, resolveModel } from './resolve-model.js';
import { stageInstructions } from './stage-instructions.js';
import { toPipelineEventData } from './to-pipeline-event.js';
import type { UsageLedger } from './usage-ledger.js';

export interface AgentBackendOptions {
  client: LLMClient;
  /** Where the agent works: the directory `attractor run` started in, or `--workdir`. */
  workingDir: string;
  providers: readonly ProviderStatus[];
  ledger: UsageLedger;
  /** `--model` / `--provider`, for nodes that name neither (the engine already filled node attributes). */
  defaults?: ModelChoice;
  /** Graph-level attributes that apply to every node unless the node sets its own. */
  graphExtra?: Record<string, string>;
  graphEnvPassthrough?: string;
  /** The graph's `auto_compact`, for nodes that set none (default false: the session only warns). */
  graphAutoCompact?: boolean;
  session?: Partial<SessionConfigInput>;
  /** How often the stage directory is checked for a manager's `steering.md` (default 250 ms). */
  steeringPollMs?: number;
}

const REASONING = new Set(['low', 'medium', 'high']);

/**
 * The codergen backend of real runs: one agent session per node visit, working in the run's working
 * directory with the provider profile of the node's model. `full` fidelity continues the conversation of the
 * node's thread; other modes start fresh with the run summary the fidelity allows. Agent events join the
 * pipeline stream as `agent.<kind>`, and every model call is booked on the run's ledger.
 *
 * @example
 * const backend = createAgentBackend({ client, workingDir: process.cwd(), providers, ledger });
 */
export function createAgentBackend(options: AgentBackendOptions): CodergenBackend {
  const threads = new Map<string, readonly Turn[]>();
  return {
    name: 'agent',
    run: (request) => runInNode(request.node.id, () => runVisit(options, threads, request)),
  };
}

async function runVisit(
  options: AgentBackendOptions,
  threads: Map<string, readonly Turn[]>,
  request: CodergenRequest,
): Promise<CodergenResult> {
  const { node } = request;
  const { ledger } = options;
  ledger.startVisit(node.id);
  const resolved = resolveModel(
    {
      model: request.model ?? options.defaults?.model,
      provider: request.provider ?? options.defaults?.provider,
    },
    options.providers,
  );
  if (!resolved.model || !resolved.provider) {
    return {
      response: '',
      outcome: {
        status: 'fail',
        failure_reason: `no model for node ${node.id}: set llm_model on the node, --model, or a provider key such as ANTHROPIC_API_KEY`,
      },
    };
  }
  const passthrough = (node.attrs.env_passthrough ?? options.graphEnvPassthrough ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const env = new LocalExecutionEnvironment({
    // A manager loop's child may work elsewhere (`stack.child_workdir`): the request says where.
    workingDir: request.workingDir ?? options.workingDir,
    envPassthrough: passthrough,
    // Every shell command of the agent is in the run's process ledger: a resume after a crash stops it.
    ...(request.processes ? { processes: request.processes, node: node.id } : {}),
  });
  const thread = request.fidelity === 'full' && request.threadId ? request.threadId : undefined;
  const history = thread ? threads.get(thread) : undefined;
  const pre = node.extra['tool_hooks.pre'] ?? options.graphExtra?.['tool_hooks.pre'];
  const post = node.extra['tool_hooks.post'] ?? options.graphExtra?.['tool_hooks.post'];
  const effort = request.reasoningEffort?.toLowerCase();
  const sessionOptions = {
    client: options.client,
    profile: getProfile(resolved.provider, { model: resolved.model }),
    env,
    model: resolved.model,
    config: {
      ...options.session,
      userInstructions: stageInstructions(request.stageDir, env.workingDirectory),
      enableCompaction:
        node.attrs.auto_compact ?? options.graphAutoCompact ?? options.session?.enableCompaction ?? false,
      // The node's `max_tokens` caps each turn's output; unset, the model's own limit applies.
      ...(node.attrs.max_tokens !== undefined ? { maxTokens: node.attrs.max_tokens } : {}),
      ...(effort && REASONING.has(effort) ? { reasoningEffort: effort as 'low' | 'medium' | 'high' } : {}),
    },
    ...(pre || post ? { toolHooks: { ...(pre ? { pre } : {}), ...(post ? { post } : {}) } } : {}),
    signal: request.signal,
    ...(history ? { history } : {}),
    // Under the codergen node's handler actor: the inspector shows the session inside the node.
    ...(request.parentActor ? { parent: request.parentActor } : {}),
  };
  // A continued thread already holds the run so far; a fresh session gets what the fidelity allows.
  const input = history
    ? request.prompt
    : [request.contextSummary, request.prompt].filter(Boolean).join('\n\n');
  let finalText = '';
  let error: AgentEvent | undefined;
  let turnLimit: AgentEvent | undefined;
  // Every event, SESSION_END at shutdown included, goes to the pipeline stream.
  const onEvent = (event: AgentEvent) => {
    let extra: Record<string, unknown> = {};
    if (event.kind === AgentEventKind.USAGE) {
      const cost = ledger.record({
        nodeId: node.id,
        model: String(event.data['model'] ?? resolved.model),
        usage: event.data['usage'] as TokenUsage,
      });
      extra = { cost_usd: cost, node_totals: ledger.nodeTotals(node.id) };
    } else if (event.kind === AgentEventKind.ASSISTANT_TEXT_END) {
      finalText = String(event.data['text'] ?? '');
      error = undefined;
    } else if (event.kind === AgentEventKind.ERROR) error = event;
    else if (event.kind === AgentEventKind.TURN_LIMIT) turnLimit = event;
    request.emit(`agent.${event.kind}`, { ...toPipelineEventData(event), ...extra }, node.id);
  };
  const session = createSession({ ...sessionOptions, onEvent });
  // A manager loop steering this pipeline writes into the stage directory (spec §4.11).
  const stopSteering = watchSteering(request.stageDir, (text) => session.steer(text), options.steeringPollMs);
  try {
    for await (const _event of session.submit(input)) {
      // Drained only to wait for the end: onEvent has seen each event.
    }
  } finally {
    stopSteering();
    if (thread) threads.set(thread, session.history);
    await session.shutdown();
  }
  // Cancellation, node timeout or a spent budget: the engine decides what that means.
  request.signal.throwIfAborted();
  const usage = ledger.nodeTotals(node.id);
  const base = { response: finalText, ...(usage ? { usage } : {}) };
  if (error) {
    const reason = describeModelFailure(
      {
        message: String(error.data['error'] ?? 'unknown error'),
        ...(typeof error.data['code'] === 'string' ? { code: error.data['code'] } : {}),
        ...(typeof error.data['provider'] === 'string' ? { provider: error.data['provider'] } : {}),
      },
      resolved.provider,
      options.providers,
    );
    return { ...base, outcome: { status: 'fail', failure_reason: reason } };
  }
  if (turnLimit) {
    const limit = turnLimit.data['limit'];
    return {
      ...base,
      outcome: {
        status: 'partial_success',
        notes: `the agent stopped at its ${String(turnLimit.data['kind'] ?? 'turn')} limit of ${String(limit)}`,
      },
    };
  }
  return base;
}
