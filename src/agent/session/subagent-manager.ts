import { AgentEventKind } from './agent-event.js';
import type { Session } from './session-types.js';

export type SubagentStatus = 'running' | 'completed' | 'failed';

interface SubagentHandle {
  id: string;
  session: Session;
  status: SubagentStatus;
  /** ASSISTANT_TEXT_END texts of the current run (since the last spawn or send_input to an idle agent). */
  texts: string[];
  error?: string;
  run: Promise<void>;
}

export interface SpawnRequest {
  task: string;
  model?: string;
  maxTurns?: number;
}

export type SubagentReply = { ok: true; text: string } | { ok: false; text: string };

/**
 * The subagents of one session (kept per session, never module-global): each is a child Session
 * run in the background; `wait` collects its answer. `create` makes the child session (depth + 1, shared
 * environment, own history) and is only called below the depth cap.
 */
export class SubagentManager {
  private readonly handles = new Map<string, SubagentHandle>();
  private counter = 0;

  constructor(
    private readonly create: (request: SpawnRequest) => Session,
    readonly depth: number,
    readonly maxDepth: number,
  ) {}

  spawn(request: SpawnRequest): SubagentReply {
    if (this.depth >= this.maxDepth) {
      return {
        ok: false,
        text: `Cannot spawn a subagent: the maximum subagent depth (${this.maxDepth}) is reached. Do this task yourself.`,
      };
    }
    const session = this.create(request);
    this.counter += 1;
    const id = `agent-${this.counter}`;
    const handle: SubagentHandle = { id, session, status: 'running', texts: [], run: Promise.resolve() };
    this.handles.set(id, handle);
    this.start(handle, request.task);
    return {
      ok: true,
      text: `Subagent '${id}' spawned for task: ${request.task}\nUse wait(agent_id='${id}') to get results.`,
    };
  }

  send(id: string, message: string): SubagentReply {
    const handle = this.handles.get(id);
    if (!handle) return notFound(id);
    if (handle.session.state === 'closed') return { ok: false, text: `Subagent '${id}' is closed.` };
    if (handle.session.state === 'processing') handle.session.followUp(message);
    else this.start(handle, message);
    return { ok: true, text: `Message sent to subagent '${id}'.` };
  }

  async wait(id: string, signal: AbortSignal): Promise<SubagentReply> {
    const handle = this.handles.get(id);
    if (!handle) return notFound(id);
    await Promise.race([handle.run, aborted(signal)]);
    if (signal.aborted) return { ok: false, text: `Waiting for subagent '${id}' was cancelled.` };
    const output = handle.texts.join('\n');
    if (handle.status === 'failed') {
      return { ok: false, text: `Subagent '${id}' failed: ${handle.error}${output ? `\n${output}` : ''}` };
    }
    return { ok: true, text: output || `Subagent '${id}' finished without a text answer.` };
  }

  async close(id: string): Promise<SubagentReply> {
    const handle = this.handles.get(id);
    if (!handle) return notFound(id);
    this.handles.delete(id);
    await handle.session.shutdown();
    return { ok: true, text: `Subagent '${id}' closed` };
  }

  /** Aborts every subagent at once (the parent was aborted). */
  abortAll(): void {
    for (const handle of this.handles.values()) handle.session.abort();
    this.handles.clear();
  }

  private start(handle: SubagentHandle, input: string): void {
    handle.status = 'running';
    handle.texts = [];
    delete handle.error;
    const events = handle.session.submit(input);
    handle.run = (async () => {
      for await (const event of events) {
        if (event.kind === AgentEventKind.ASSISTANT_TEXT_END) handle.texts.push(String(event.data['text']));
        else if (event.kind === AgentEventKind.ERROR) handle.error = String(event.data['error']);
        else if (event.kind === AgentEventKind.TURN_LIMIT && handle.error === undefined) {
          handle.error = `turn limit reached (${String(event.data['limit'])})`;
        }
      }
      handle.status =
        handle.error === undefined && handle.session.state !== 'closed' ? 'completed' : 'failed';
      if (handle.status === 'failed' && handle.error === undefined) handle.error = 'the subagent was closed';
    })();
  }
}

function notFound(id: string): SubagentReply {
  return { ok: false, text: `No subagent with id '${id}'.` };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
