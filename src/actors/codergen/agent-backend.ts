import type { ExecutionEnvironment } from '../../agent/environment/execution-environment.js';
import { LocalExecutionEnvironment } from '../../agent/environment/local-execution-environment.js';
import { getProfile } from '../../agent/profiles/get-profile.js';
import { type AgentEvent, AgentEventKind, type AgentEventOf } from '../../agent/session/agent-event.js';
import { createSession } from '../../agent/session/session.js';
import type { Turn } from '../../agent/session/turn.js';
import { readExtraAttribute } from '../../compiler/attributes/read-extra-attribute.js';
import { anySignal } from '../../shared/any-signal.js';
import { definedFields } from '../../shared/defined-fields.js';
import type { CodergenBackend, CodergenRequest, CodergenResult } from '../codergen-backend.js';
import { watchSteering } from '../steering-file.js';
import type { AgentBackendOptions } from './agent-backend-options.js';
import { configuredProviders, type ProviderStatus } from './configured-providers.js';
import { describeModelFailure } from './describe-model-failure.js';
import { runInNode } from './node-scope.js';
import { resolveModel } from './resolve-model.js';
import { stageInstructions } from './stage-instructions.js';
import { toPipelineEvent } from './to-pipeline-event.js';
import { UsageLedger } from './usage-ledger.js';

export type { AgentBackendOptions, AgentEnvironmentContext } from './agent-backend-options.js';

/** The agent backend, with the ledger its model calls are booked on (pass it as `RunOptions.accounting`). */
export interface AgentBackend extends CodergenBackend {
  readonly ledger: UsageLedger;
}

interface Resolved {
  client: AgentBackendOptions['client'];
  providers: readonly ProviderStatus[];
  ledger: UsageLedger;
  graphExtra: Record<string, string> | undefined;
  graphEnvPassthrough: string | undefined;
  graphAutoCompact: boolean | undefined;
}

const REASONING = new Set(['low', 'medium', 'high']);

/**
 * The codergen backend of real runs: one agent session per node visit, working in the run's working
 * directory with the provider profile of the node's model (plus the options' custom tools, in the options'
 * execution environment when one is given). `full` fidelity continues the conversation of the node's thread;
 * other modes start fresh with the run summary the fidelity allows. Agent events join the pipeline stream as
 * `agent.<kind>`, and every model call is booked on the backend's ledger.
 *
 * @example
 * const backend = createAgentBackend({ client: LLMClient.fromEnv(), tools: [deployTool] });
 * await runPipeline({ source, backend, accounting: backend.ledger, interviewer });
 */
export function createAgentBackend(options: AgentBackendOptions): AgentBackend {
  const threads = new Map<string, readonly Turn[]>();
  const resolved: Resolved = {
    client: options.client,
    providers: options.providers ?? providersOfClient(options.client),
    ledger: options.ledger ?? new UsageLedger(),
    graphExtra: options.graphExtra ?? options.graph?.extra,
    graphEnvPassthrough: options.graphEnvPassthrough ?? options.graph?.attrs.env_passthrough,
    graphAutoCompact: options.graphAutoCompact ?? options.graph?.attrs.auto_compact,
  };
  return {
    name: 'agent',
    ledger: resolved.ledger,
    run: (request) => runInNode(request.node.id, () => runVisit(options, resolved, threads, request)),
  };
}

async function runVisit(
  options: AgentBackendOptions,
  resolved: Resolved,
  threads: Map<string, readonly Turn[]>,
  request: CodergenRequest,
): Promise<CodergenResult> {
  const { node } = request;
  const { ledger } = resolved;
  const visitBudget = ledger.startVisit(node.id, node.attrs.max_cost_usd);
  const choice = resolveModel(
    {
      model: request.model ?? options.defaults?.model,
      provider: request.provider ?? options.defaults?.provider,
    },
    resolved.providers,
  );
  if (!choice.model || !choice.provider) {
    return {
      response: '',
      outcome: {
        status: 'fail',
        failure_reason: `no model for node ${node.id}: set llm_model on the node, --model, or a provider key such as ANTHROPIC_API_KEY`,
      },
    };
  }
  const env = environmentFor(options, resolved, request);
  // The node's own budget stops its session as the run's signal does, but fails only this visit.
  const stopped = visitBudget ? anySignal([request.signal, visitBudget.signal]) : undefined;
  const thread = request.fidelity === 'full' && request.threadId ? request.threadId : undefined;
  const history = thread ? threads.get(thread) : undefined;
  const pre =
    readExtraAttribute(node.extra, 'tool_hooks.pre') ??
    readExtraAttribute(resolved.graphExtra, 'tool_hooks.pre');
  const post =
    readExtraAttribute(node.extra, 'tool_hooks.post') ??
    readExtraAttribute(resolved.graphExtra, 'tool_hooks.post');
  const effort = request.reasoningEffort?.toLowerCase();
  const tools = typeof options.tools === 'function' ? options.tools(node) : (options.tools ?? []);
  const sessionOptions = {
    client: resolved.client,
    profile: getProfile(choice.provider, { model: choice.model }),
    ...(tools.length > 0 ? { tools: [...tools] } : {}),
    env,
    model: choice.model,
    config: {
      ...options.session,
      userInstructions: stageInstructions(request.stageDir, env.workingDirectory),
      enableCompaction:
        node.attrs.auto_compact ?? resolved.graphAutoCompact ?? options.session?.enableCompaction ?? false,
      // The node's `max_tokens` caps each turn's output; unset, the model's own limit applies.
      ...definedFields({ maxTokens: node.attrs.max_tokens }),
      ...(effort && REASONING.has(effort) ? { reasoningEffort: effort as 'low' | 'medium' | 'high' } : {}),
    },
    ...(pre || post ? { toolHooks: { ...(pre ? { pre } : {}), ...(post ? { post } : {}) } } : {}),
    signal: stopped?.signal ?? request.signal,
    ...definedFields({ history, parent: request.parentActor }),
  };
  // A continued thread already holds the run so far; a fresh session gets what the fidelity allows.
  const input = history
    ? request.prompt
    : [request.contextSummary, request.prompt].filter(Boolean).join('\n\n');
  let finalText = '';
  let error: AgentEventOf<'error'> | undefined;
  let turnLimit: AgentEventOf<'turn_limit'> | undefined;
  // Every event, SESSION_END at shutdown included, goes to the pipeline stream.
  const onEvent = (event: AgentEvent) => {
    let extra: { cost_usd?: number; node_totals?: Record<string, unknown> } = {};
    if (event.kind === AgentEventKind.USAGE) {
      const { usage } = event.data;
      // The built-in session's USAGE always carries the call's usage (only an ACP agent's may lack it).
      if (usage) {
        const cost = ledger.record({
          nodeId: node.id,
          model: String(event.data.model ?? choice.model),
          usage,
        });
        extra = { cost_usd: cost, node_totals: ledger.nodeTotals(node.id) };
      }
    } else if (event.kind === AgentEventKind.ASSISTANT_TEXT_END) {
      finalText = event.data.text;
      error = undefined;
    } else if (event.kind === AgentEventKind.ERROR) error = event;
    else if (event.kind === AgentEventKind.TURN_LIMIT) turnLimit = event;
    const { kind, data } = toPipelineEvent(event);
    request.emit(kind, { ...data, ...extra }, node.id);
  };
  const session = createSession({ ...sessionOptions, onEvent });
  // A manager loop steering this pipeline writes into the stage directory.
  const stopSteering = watchSteering(request.stageDir, (text) => session.steer(text), options.steeringPollMs);
  try {
    for await (const _event of session.submit(input)) {
      // Drained only to wait for the end: onEvent has seen each event.
    }
  } catch (error) {
    // The node's own budget stopped the session: the visit fails below, the run goes on.
    if (!visitBudget?.signal.aborted || request.signal.aborted) throw error;
  } finally {
    stopSteering();
    stopped?.dispose();
    if (thread) threads.set(thread, session.history);
    await session.shutdown();
  }
  // Cancellation, node timeout or a spent budget: the engine decides what that means.
  request.signal.throwIfAborted();
  const usage = ledger.nodeTotals(node.id);
  const base = { response: finalText, ...definedFields({ usage }) };
  if (visitBudget?.signal.aborted) {
    const reason = visitBudget.signal.reason;
    return {
      ...base,
      outcome: { status: 'fail', failure_reason: reason instanceof Error ? reason.message : String(reason) },
    };
  }
  if (error) {
    const reason = describeModelFailure(
      {
        message: error.data.error,
        ...definedFields({ code: error.data.code, provider: error.data.provider }),
      },
      choice.provider,
      resolved.providers,
    );
    return { ...base, outcome: { status: 'fail', failure_reason: reason } };
  }
  if (turnLimit) {
    const { limit, kind } = turnLimit.data;
    return {
      ...base,
      outcome: {
        status: 'partial_success',
        notes: `the agent stopped at its ${kind} limit of ${limit}`,
      },
    };
  }
  return base;
}

/**
 * The environment a node visit's agent works in: the options' (an instance, or made per visit by a factory),
 * else a local one in the run's working directory whose commands are in the run's process ledger.
 */
function environmentFor(
  options: AgentBackendOptions,
  resolved: Resolved,
  request: CodergenRequest,
): ExecutionEnvironment {
  const { node } = request;
  const envPassthrough = (node.attrs.env_passthrough ?? resolved.graphEnvPassthrough ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  // A manager loop's child may work elsewhere (`stack.child_workdir`): the request says where.
  const workingDir = request.workingDir ?? options.workingDir ?? process.cwd();
  const custom = options.environment;
  if (typeof custom === 'function') {
    return custom({ node, workingDir, envPassthrough, stageDir: request.stageDir, signal: request.signal });
  }
  if (custom) return custom;
  const sandbox = request.sandbox?.([workingDir]);
  return new LocalExecutionEnvironment({
    workingDir,
    envPassthrough,
    ...definedFields({ sandbox }),
    // Every shell command of the agent is in the run's process ledger: a resume after a crash stops it.
    ...(request.processes ? { processes: request.processes, node: node.id } : {}),
  });
}

/** Without a provider list: the providers the client has an adapter for count as configured. */
function providersOfClient(client: AgentBackendOptions['client']): ProviderStatus[] {
  const known = configuredProviders({});
  return known.map((status) => ({ ...status, configured: client.adapter(status.name) !== undefined }));
}
