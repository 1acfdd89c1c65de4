import {
  type Attributes,
  type Context,
  context as contextApi,
  type Link,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { EventData, PipelineEvent } from '../shared/pipeline-event.js';
import {
  Attr,
  GenAi,
  modelCallAttributes,
  Operation,
  textMessages,
  usageTotalsAttributes,
} from './gen-ai-attributes.js';
import { NodeSpanBatch } from './node-span-batch.js';
import { type PendingNode, pendingContext, pendingSpanContext } from './pending-node.js';
import type { PinnedIdGenerator } from './pinned-id-generator.js';
import { type RootIds, rootIdsOf, traceparentOf } from './trace-ids.js';

export interface RunTracerOptions {
  tracer: Tracer;
  /**
   * Present when the tracer provider is ours: the run's root span then gets ids a later execution can
   * link to, and a node's span its id before it is made (else a node whose context is needed early
   * has its span opened then).
   */
  ids?: PinnedIdGenerator;
  /** Prompts, responses, tool arguments and results as attributes (off unless the user opts in). */
  captureContent: boolean;
}

/** Where an event happened: its node, inside which parallel branch or child pipeline. */
function nodeKey(event: PipelineEvent): string | undefined {
  if (event.node_id === undefined) return undefined;
  const tags: { branch?: string; parent?: string } = event.data;
  return `${tags.parent ?? ''}\u0000${tags.branch ?? ''}\u0000${event.node_id}`;
}

const timeOf = (event: PipelineEvent): number => Date.parse(event.timestamp);

/**
 * Turns one run's event stream into one trace: a span for the run (`invoke_workflow`), one per node
 * visit (`invoke_agent` for a codergen node), one per model call (`chat`) and one per tool call
 * (`execute_tool`), named and attributed by the OpenTelemetry GenAI conventions. Built from the events
 * rather than from calls inside the engine so that it sees exactly what the run records (token counts
 * and cost equal `pipeline.finalize`'s) and the engine's layers stay free of tracing (decision 0450).
 * A node's span is made after its visit ended, with its attributes gathered meanwhile (`PendingNode`,
 * `NodeSpanBatch`): what a traced step pays is a few property writes, not the SDK's calls.
 */
export class RunTracer {
  readonly #options: RunTracerOptions;
  #run: { span: Span; context: Context } | undefined;
  readonly #nodes = new Map<string, PendingNode>();
  /** A parallel branch's id → the parallel node's visit it runs under. */
  readonly #branches = new Map<string, PendingNode>();
  readonly #tools = new Map<string, Span>();
  /** Ended visits whose spans are made together. */
  readonly #ended: NodeSpanBatch;

  constructor(options: RunTracerOptions) {
    this.#options = options;
    this.#ended = new NodeSpanBatch(options.tracer, options.ids);
  }

  /** The `traceparent` of a node's open span (else the run's), for the commands and agents it starts. */
  traceparent(nodeId: string): string | undefined {
    let found: PendingNode | undefined;
    for (const open of this.#nodes.values())
      if (open.nodeId === nodeId && open.completedAt === undefined) found = open;
    if (found) this.#contextOfNode(found);
    const ids = (found && pendingSpanContext(found)) ?? this.#run?.span.spanContext();
    return ids === undefined ? undefined : traceparentOf(ids.traceId, ids.spanId);
  }

  record(event: PipelineEvent): void {
    switch (event.kind) {
      case 'pipeline.start':
      case 'pipeline.resume':
        if (!isTagged(event)) this.#startRun(event);
        return;
      case 'node.start':
        this.#startNode(event);
        return;
      case 'node.complete':
        this.#completeNode(event);
        return;
      case 'edge.selected':
        this.#routeNode(event);
        return;
      case 'parallel.branch.start':
        this.#openBranch(event);
        return;
      case 'agent.usage':
        this.#modelCall(event);
        return;
      case 'agent.tool_call_start':
        this.#startTool(event);
        return;
      case 'agent.tool_call_end':
        this.#endTool(event);
        return;
      case 'agent.user_input':
        this.#message(event, GenAi.inputMessages, textMessages('user', event.data.text));
        return;
      case 'agent.assistant_text_end':
        this.#message(event, GenAi.outputMessages, textMessages('assistant', event.data.text));
        return;
      case 'pipeline.finalize':
        if (!isTagged(event)) this.#endRun(event);
        return;
      default:
        return;
    }
  }

  /** Ends whatever is still open (the run stopped without finishing, or its process is closing). */
  end(at = Date.now()): void {
    for (const open of this.#nodes.values()) this.#endNode(open, at);
    this.#nodes.clear();
    this.#ended.drain();
    for (const span of this.#tools.values()) span.end(at);
    this.#tools.clear();
    this.#run?.span.end(at);
    this.#run = undefined;
  }

  #startRun(event: Extract<PipelineEvent, { kind: 'pipeline.start' | 'pipeline.resume' }>): void {
    this.end(timeOf(event));
    const { run_id: runId, name } = event.data;
    const forkedFrom = event.kind === 'pipeline.resume' ? event.data.forked_from : undefined;
    const resumed = event.kind === 'pipeline.resume' && forkedFrom === undefined;
    // A fork's first execution is its own first; a resume is a later execution of the same run.
    const ids = resumed ? rootIdsOf(runId, event.timestamp) : rootIdsOf(runId);
    const links: Link[] = [];
    if (resumed) links.push(linkTo(rootIdsOf(runId), 'resumed'));
    if (forkedFrom) links.push(linkTo(rootIdsOf(forkedFrom.run_id), 'forked'));
    const attributes: Attributes = {
      [GenAi.operation]: Operation.workflow,
      [GenAi.workflowName]: name,
      [Attr.runId]: runId,
      [Attr.execution]: resumed ? 'resume' : forkedFrom ? 'fork' : 'start',
    };
    const start = (): Span =>
      this.#options.tracer.startSpan(
        `${Operation.workflow} ${name}`,
        { kind: SpanKind.INTERNAL, startTime: timeOf(event), attributes, links, root: true },
        contextApi.active(),
      );
    const span = this.#options.ids ? this.#options.ids.withRootIds(ids, start) : start();
    this.#run = { span, context: trace.setSpan(contextApi.active(), span) };
  }

  #startNode(event: Extract<PipelineEvent, { kind: 'node.start' }>): void {
    const key = nodeKey(event);
    const nodeId = event.node_id;
    if (key === undefined || nodeId === undefined) return;
    const previous = this.#nodes.get(key);
    const startTime = timeOf(event);
    if (previous) this.#endNode(previous, startTime);
    const agent = event.data.handler === 'codergen';
    const tags: { branch?: string; parent?: string } = event.data;
    const attributes: Attributes = {
      [Attr.nodeId]: nodeId,
      [Attr.handler]: event.data.handler,
      [Attr.attempt]: event.data.attempt,
      [Attr.step]: event.data.step,
    };
    if (tags.branch !== undefined) attributes[Attr.branch] = tags.branch;
    if (tags.parent !== undefined) attributes[Attr.parent] = tags.parent;
    if (agent) {
      attributes[GenAi.operation] = Operation.agent;
      attributes[GenAi.agentName] = nodeId;
      attributes[GenAi.agentId] = nodeId;
    }
    this.#nodes.set(key, {
      key,
      nodeId,
      spanName: agent ? `${Operation.agent} ${nodeId}` : `node ${nodeId}`,
      startTime,
      parent: this.#parentOf(tags),
      attributes,
    });
  }

  #completeNode(event: Extract<PipelineEvent, { kind: 'node.complete' }>): void {
    const open = this.#openNode(event);
    if (open === undefined) return;
    const { status, failure_reason: reason, usage } = event.data;
    open.attributes[Attr.outcome] = status;
    if (reason !== undefined) open.attributes[Attr.failureReason] = reason;
    if (usage !== undefined) Object.assign(open.attributes, usageTotalsAttributes(usage));
    if (status === 'fail') open.failure = reason ?? 'failed';
    open.completedAt = timeOf(event);
    // Tool calls the node left open end with it.
    this.#endToolsOf(open, open.completedAt);
  }

  #routeNode(event: Extract<PipelineEvent, { kind: 'edge.selected' }>): void {
    const tags: { branch?: string; parent?: string } = event.data;
    const key = `${tags.parent ?? ''}\u0000${tags.branch ?? ''}\u0000${event.data.from}`;
    const open = this.#nodes.get(key);
    if (open === undefined || open.completedAt === undefined) return;
    open.attributes[Attr.route] = event.data.to;
    open.attributes[Attr.routeRule] = event.data.step;
    this.#endNode(open, open.completedAt);
    this.#nodes.delete(key);
  }

  #openBranch(event: Extract<PipelineEvent, { kind: 'parallel.branch.start' }>): void {
    // The event is tagged with the branch it starts, not the parallel node's own place: find that node
    // by its id among the visits still running.
    let parallel: PendingNode | undefined;
    for (const open of this.#nodes.values())
      if (open.nodeId === event.node_id && open.completedAt === undefined) parallel = open;
    if (parallel) this.#branches.set(event.data.branch, parallel);
  }

  #modelCall(event: Extract<PipelineEvent, { kind: 'agent.usage' }>): void {
    const data: EventData<'agent.usage'> = event.data;
    // An external agent's usage reports its context window, not a model call.
    if (data.usage === undefined && data.model === undefined) return;
    const end = timeOf(event);
    const start = data.duration_ms === undefined ? end : end - data.duration_ms;
    const span = this.#options.tracer.startSpan(
      `${Operation.chat} ${data.model ?? 'model'}`,
      { kind: SpanKind.CLIENT, startTime: start, attributes: modelCallAttributes(data) },
      this.#contextOf(event),
    );
    span.end(end);
  }

  #startTool(event: Extract<PipelineEvent, { kind: 'agent.tool_call_start' }>): void {
    const { tool_name: name, tool_call_id: id, arguments: args } = event.data;
    const span = this.#options.tracer.startSpan(
      `${Operation.tool} ${name}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: timeOf(event),
        attributes: {
          [GenAi.operation]: Operation.tool,
          [GenAi.toolName]: name,
          [GenAi.toolCallId]: id,
          [GenAi.toolType]: 'function',
          ...(this.#options.captureContent ? { [GenAi.toolArguments]: JSON.stringify(args ?? null) } : {}),
        },
      },
      this.#contextOf(event),
    );
    this.#tools.set(this.#toolKey(event, id), span);
  }

  #endTool(event: Extract<PipelineEvent, { kind: 'agent.tool_call_end' }>): void {
    const key = this.#toolKey(event, event.data.tool_call_id);
    const span = this.#tools.get(key);
    if (span === undefined) return;
    this.#tools.delete(key);
    if (this.#options.captureContent) span.setAttribute(GenAi.toolResult, event.data.output);
    if (event.data.is_error)
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool reported an error' });
    span.end(timeOf(event));
  }

  #message(event: PipelineEvent, attribute: string, messages: string): void {
    if (!this.#options.captureContent) return;
    const open = this.#openNode(event);
    if (open) open.attributes[attribute] = messages;
  }

  #endRun(event: Extract<PipelineEvent, { kind: 'pipeline.finalize' }>): void {
    const run = this.#run;
    if (run === undefined) return;
    const { status, quality, reason, usage } = event.data;
    run.span.setAttributes({
      [Attr.runStatus]: status,
      [Attr.runQuality]: quality,
      ...usageTotalsAttributes(usage),
    });
    if (status === 'failed') run.span.setStatus({ code: SpanStatusCode.ERROR, message: reason ?? 'failed' });
    this.end(timeOf(event));
  }

  #endNode(open: PendingNode, at: number): void {
    this.#ended.add(open, at);
  }

  /** A visit's context, made the first time something inside it needs one. */
  #contextOfNode(open: PendingNode): Context {
    return pendingContext(open, this.#options.tracer, this.#options.ids);
  }

  #openNode(event: PipelineEvent): PendingNode | undefined {
    const key = nodeKey(event);
    return key === undefined ? undefined : this.#nodes.get(key);
  }

  #parentOf(tags: { branch?: string; parent?: string }): Context {
    if (tags.branch !== undefined) {
      const branch = this.#branches.get(tags.branch);
      if (branch) return this.#contextOfNode(branch);
    }
    if (tags.parent !== undefined) {
      for (const open of this.#nodes.values())
        if (open.nodeId === tags.parent) return this.#contextOfNode(open);
    }
    return this.#run?.context ?? contextApi.active();
  }

  /** A node's span when the event names an open one, else the run's. */
  #contextOf(event: PipelineEvent): Context {
    const open = this.#openNode(event);
    if (open) return this.#contextOfNode(open);
    return this.#run?.context ?? contextApi.active();
  }

  #toolKey(event: PipelineEvent, id: string): string {
    return `${nodeKey(event) ?? ''}\u0000${id}`;
  }

  #endToolsOf(open: PendingNode, at: number): void {
    if (this.#tools.size === 0) return;
    const prefix = `${open.key}\u0000`;
    for (const [key, span] of this.#tools)
      if (key.startsWith(prefix)) {
        span.end(at);
        this.#tools.delete(key);
      }
  }
}

function isTagged(event: PipelineEvent): boolean {
  const tags: { branch?: string; parent?: string } = event.data;
  return tags.branch !== undefined || tags.parent !== undefined;
}

function linkTo(ids: RootIds, reason: string): Link {
  return {
    context: { traceId: ids.traceId, spanId: ids.spanId, traceFlags: 1, isRemote: true },
    attributes: { [Attr.linkReason]: reason },
  };
}
