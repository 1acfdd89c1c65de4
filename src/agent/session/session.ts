import { randomUUID } from 'node:crypto';
import { type Actor, createActor, fromPromise, waitFor } from 'xstate';
import {
  addUsage,
  createUsage,
  estimateCost,
  type ReasoningEffort,
  type Response,
  type TokenUsage,
} from '../../llm/index.js';
import { anySignal } from '../../shared/any-signal.js';
import { definedFields } from '../../shared/defined-fields.js';
import { AttractorError } from '../../shared/errors.js';
import type { AgentTool } from '../tools/define-tool.js';
import { type AgentEvent, type AgentEventData, AgentEventKind, agentEvent } from './agent-event.js';
import { processInputs } from './agentic-loop.js';
import { ContextWindowTracker } from './context-window-tracker.js';
import { EventQueue } from './event-queue.js';
import { HistoryMessages } from './history-messages.js';
import { LoopDetector } from './loop-detector.js';
import { outputLimit } from './output-budget.js';
import { resolveSessionConfig, type SessionConfig } from './session-config.js';
import {
  type ProcessInputResult,
  type SessionState,
  sessionLifecycleMachine,
} from './session-lifecycle-machine.js';
import type { SessionRuntime } from './session-runtime.js';
import { buildSessionSystemPrompt } from './session-system-prompt.js';
import type { CreateSessionOptions, Session } from './session-types.js';
import { type SpawnRequest, SubagentManager } from './subagent-manager.js';
import { createSubagentTools } from './subagent-tools.js';
import type { Turn } from './turn.js';

export type { CreateSessionOptions, Session } from './session-types.js';

/**
 * Creates an agent session and starts its lifecycle actor (idle). See {@link Session}.
 *
 * @example
 * const session = createSession({ client, profile: getProfile('openai'), env, config: { maxTurns: 50 } });
 */
export function createSession(options: CreateSessionOptions): Session {
  return new AgentSession(options);
}

type LifecycleActor = Actor<typeof sessionLifecycleMachine>;

/** What takeSteering() returns between steer() calls, which is almost always: no array per tool round. */
const NO_STEERING: readonly string[] = Object.freeze([]);

class AgentSession implements Session {
  readonly id = randomUUID();
  readonly depth: number;
  readonly model: string;
  readonly actor: LifecycleActor;
  private readonly options: CreateSessionOptions;
  private readonly config: SessionConfig;
  private readonly rt: SessionRuntime;
  private readonly subagents: SubagentManager;
  private readonly controller = new AbortController();
  private readonly listeners = new Set<(event: AgentEvent) => void>();
  private readonly steering: string[] = [];
  private readonly followUps: string[] = [];
  private queue: EventQueue<AgentEvent> | undefined;
  private totalUsage: TokenUsage = createUsage();
  private totalCost = 0;
  private started = false;
  private ended = false;
  private detachSignal: (() => void) | undefined;

  constructor(options: CreateSessionOptions) {
    this.options = options;
    this.config = resolveSessionConfig(options.config);
    this.depth = options.depth ?? 0;
    this.model = options.model ?? (this.config.modelId || options.profile.model);
    if (options.onEvent) this.listeners.add(options.onEvent);
    this.subagents = new SubagentManager(
      (request) => this.spawnChild(request),
      this.depth,
      this.config.maxSubagentDepth,
    );
    const tools = new Map<string, AgentTool>();
    for (const tool of [
      ...options.profile.tools(),
      ...createSubagentTools(this.subagents),
      ...(options.tools ?? []),
    ]) {
      tools.set(tool.name, tool);
    }
    this.rt = {
      id: this.id,
      depth: this.depth,
      client: options.client,
      profile: options.profile,
      env: options.env,
      config: this.config,
      model: this.model,
      outputLimit: outputLimit(this.model, options.profile, this.config.maxTokens),
      tools,
      toolHooks: options.toolHooks,
      loopDetector: new LoopDetector(this.config.loopDetectionWindow),
      contextWindow: new ContextWindowTracker(
        options.profile.contextWindow,
        this.config.contextWindowWarningThreshold,
      ),
      messages: new HistoryMessages(),
      history: [...(options.history ?? [])],
      turnCount: 0,
      reasoningEffort: this.config.reasoningEffort,
      systemPrompt: '',
      emit: (kind, data, atMs) => this.emit(kind, data, atMs),
      recordUsage: (response, phase, atMs, startedAtMs) =>
        this.recordUsage(response, phase, atMs, startedAtMs),
      takeSteering: () => (this.steering.length === 0 ? NO_STEERING : this.steering.splice(0)),
      takeFollowUp: () => this.followUps.shift(),
    };
    const logic = sessionLifecycleMachine.provide({
      actors: {
        processInput: fromPromise<ProcessInputResult, { text: string }>(({ input, signal }) =>
          this.process(input.text, signal),
        ),
      },
    });
    this.actor = createActor(logic, {
      id: `agent-session-${this.id}`,
      input: { sessionId: this.id, depth: this.depth },
      ...definedFields({ parent: options.parent }),
    });
    // The stream of a submit() ends only once the machine has left PROCESSING, so the next submit() is accepted.
    this.actor.subscribe((snapshot) => {
      if (snapshot.value !== 'processing') this.endStream();
    });
    this.actor.start();
    const signal = options.signal;
    if (signal?.aborted) this.abort();
    else if (signal) {
      const onAbort = () => this.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      // A run-long signal outlives many sessions: do not keep each closed one reachable from it.
      this.detachSignal = () => signal.removeEventListener('abort', onAbort);
    }
  }

  get state(): SessionState {
    return this.actor.getSnapshot().value as SessionState;
  }

  get history(): readonly Turn[] {
    return [...this.rt.history];
  }

  get usage(): TokenUsage {
    return this.totalUsage;
  }

  get costUsd(): number {
    return this.totalCost;
  }

  submit(input: string): EventQueue<AgentEvent> {
    const state = this.state;
    if (state === 'closed') throw new AttractorError('agent.session_closed', 'This agent session is closed.');
    if (state === 'processing') {
      throw new AttractorError(
        'agent.session_busy',
        'This agent session is still processing an input; use steer() or followUp() to add to it.',
      );
    }
    const queue = new EventQueue<AgentEvent>();
    this.queue = queue;
    if (!this.started) {
      this.started = true;
      this.emit(AgentEventKind.SESSION_START, { state });
    }
    this.actor.send({ type: 'SUBMIT', input });
    return queue;
  }

  steer(message: string): void {
    if (this.state !== 'closed') this.steering.push(message);
  }

  followUp(message: string): void {
    if (this.state !== 'closed') this.followUps.push(message);
  }

  setReasoningEffort(effort: ReasoningEffort | undefined): void {
    this.rt.reasoningEffort = effort;
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  abort(): void {
    if (this.state === 'closed') return;
    this.controller.abort(new AttractorError('agent.aborted', 'The agent session was aborted.'));
    // While processing, the loop unwinds (killing tool processes through the signal) and closes the session.
    if (this.state === 'idle' || this.state === 'awaiting_input') {
      this.closeDown();
      this.actor.send({ type: 'CLOSE' });
    }
  }

  /** abort(), wait for CLOSED, then (top-level sessions only: subagents share it) clean the environment up. */
  async shutdown(): Promise<void> {
    this.abort();
    await waitFor(this.actor, (snapshot) => snapshot.status === 'done');
    if (this.depth === 0) await this.options.env.cleanup();
  }

  private async process(text: string, invokeSignal: AbortSignal): Promise<ProcessInputResult> {
    // A plain signal detached when the input is done, not AbortSignal.any's composite, which costs more per
    // listener and leaves a WeakRef in the session-long signal for every input (decision 0041).
    const combined = anySignal([this.controller.signal, invokeSignal]);
    const signal = combined.signal;
    let result: ProcessInputResult = { close: false };
    try {
      if (this.rt.systemPrompt === '') {
        this.rt.systemPrompt = await buildSessionSystemPrompt({
          env: this.options.env,
          profile: this.options.profile,
          model: this.model,
          tools: [...this.rt.tools.values()],
          userInstructions: this.config.userInstructions,
        });
      }
      result = await processInputs(this.rt, text, signal);
    } catch (error) {
      // processInputs reports expected failures itself; this is a fault in the session or a tool seam.
      this.emit(AgentEventKind.ERROR, {
        error: error instanceof Error ? error.message : String(error),
        phase: 'session',
      });
    } finally {
      combined.dispose();
    }
    if (result.close || this.controller.signal.aborted) {
      this.closeDown();
      return { close: true };
    }
    return result;
  }

  /** Subagents first, then SESSION_END; the machine closes after. */
  private closeDown(): void {
    if (this.ended) return;
    this.ended = true;
    this.detachSignal?.();
    this.subagents.abortAll();
    this.emit(AgentEventKind.SESSION_END, { state: 'closed' });
  }

  private spawnChild(request: SpawnRequest): Session {
    const child = createSession({
      client: this.options.client,
      profile: this.options.profile,
      env: this.options.env,
      model: request.model ?? this.model,
      config: { ...this.options.config, maxTurns: request.maxTurns ?? 0, modelId: '' },
      depth: this.depth + 1,
      parent: this.actor,
      signal: this.controller.signal,
      ...definedFields({ toolHooks: this.options.toolHooks }),
    });
    // Usage rolls up: the parent's totals include its subagents', and its stream reports their calls.
    child.subscribe((event) => {
      if (event.kind !== AgentEventKind.USAGE) return;
      const { usage, cost_usd } = event.data;
      // A session's USAGE always carries the call's usage; the schema's field is optional for ACP agents.
      if (usage) this.addUsage(usage, cost_usd);
      this.emit(AgentEventKind.USAGE, { ...event.data, subagent_id: event.data.subagent_id ?? child.id });
    });
    return child;
  }

  private recordUsage(
    response: Response,
    phase: 'turn' | 'compaction',
    atMs?: number,
    startedAtMs?: number,
  ): void {
    const cost = estimateCost(response.model, response.usage);
    this.addUsage(response.usage, cost);
    this.emit(
      AgentEventKind.USAGE,
      {
        model: response.model,
        provider: response.provider,
        usage: response.usage,
        cost_usd: cost,
        ...(startedAtMs === undefined ? {} : { duration_ms: (atMs ?? Date.now()) - startedAtMs }),
        phase,
      },
      atMs,
    );
  }

  private addUsage(usage: TokenUsage, cost: number | undefined): void {
    this.totalUsage = addUsage(this.totalUsage, usage);
    this.totalCost += cost ?? 0;
  }

  private emit<K extends AgentEventKind>(kind: K, data: AgentEventData<K>, atMs?: number): void {
    const event = agentEvent(this.id, kind, data, atMs);
    this.queue?.push(event);
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(event);
  }

  private endStream(): void {
    const queue = this.queue;
    this.queue = undefined;
    queue?.close();
  }
}
