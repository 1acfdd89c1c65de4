import type { McpServer } from '@agentclientprotocol/sdk';
import { definedFields } from '../../shared/defined-fields.js';
import { filterSecretEnv } from '../../shared/process/filter-secret-env.js';
import type { SandboxSpec } from '../../shared/sandbox/sandbox-policy.js';
import type { CodergenBackend, CodergenRequest, CodergenResult } from '../codergen-backend.js';
import type { AgentConfig, McpServerConfig } from './agent-config.js';
import { parsePermissionPolicy } from './answer-permission.js';
import { composeAgentPrompt } from './compose-agent-prompt.js';
import { resolveAgentCommand } from './resolve-agent-command.js';
import { runAgentSession } from './run-agent-session.js';
import type { EmitAgentEvent } from './session-update-events.js';

export interface AcpBackendOptions {
  config: AgentConfig;
  /** Base environment (default `process.env`): the agent gets all of it, its terminals the filtered part. */
  env?: Readonly<Record<string, string | undefined>>;
  /** `--auto-approve`: `agent_permissions="ask"` allows without asking. */
  autoApprove?: boolean;
  /** Used when a request carries no working directory (default `process.cwd()`). */
  workingDir?: string;
}

function toMcpServer(server: McpServerConfig): McpServer {
  if ('command' in server) {
    return {
      name: server.name,
      command: server.command,
      args: server.args,
      env: Object.entries(server.env).map(([name, value]) => ({ name, value })),
    };
  }
  return {
    type: server.type,
    name: server.name,
    url: server.url,
    headers: Object.entries(server.headers).map(([name, value]) => ({ name, value })),
  };
}

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) result[name] = value;
  return result;
}

/**
 * Codergen through an external coding agent over the Agent Client Protocol: one agent process and
 * session per node visit (`agent` / `agent_command` / `agent_permissions` attributes). A `full`-fidelity
 * visit on a thread an earlier visit of the same agent used continues that session (`session/load`)
 * when the agent supports it; otherwise the new session gets the fidelity summary.
 *
 * @example
 * const backend = createAcpBackend({ config: loadAgentConfig(cwd, process.env), workingDir: cwd });
 */
export function createAcpBackend(options: AcpBackendOptions): CodergenBackend {
  const baseEnv = options.env ?? process.env;
  /** `<command>\0<thread id>` → the agent's session id. */
  const threads = new Map<string, string>();
  return {
    name: 'acp',
    async run(request: CodergenRequest): Promise<CodergenResult> {
      const { node } = request;
      const agent = resolveAgentCommand(node.attrs, options.config);
      if (!agent) throw new Error(`node ${node.id} selects no agent; the ACP backend cannot run it`);
      const policy = parsePermissionPolicy(node.attrs.agent_permissions);
      if (!policy) {
        return {
          response: '',
          outcome: {
            status: 'fail',
            failure_reason: `agent_permissions="${node.attrs.agent_permissions}" must be allow, deny or ask`,
          },
        };
      }
      const threadKey =
        request.fidelity === 'full' && request.threadId ? `${agent.command}\0${request.threadId}` : undefined;
      const resumeSessionId = threadKey ? threads.get(threadKey) : undefined;
      const emit: EmitAgentEvent = (kind, data) =>
        // Usage is labelled like the built-in session's (`provider`), so one consumer reads both.
        request.emit(
          kind,
          kind === 'agent.usage' ? { provider: `acp:${agent.name}`, ...data } : data,
          node.id,
        );
      const cwd = request.workingDir ?? options.workingDir ?? process.cwd();
      emit('agent.session_start', {
        agent: agent.name,
        command: agent.command,
        resuming: resumeSessionId !== undefined,
      });
      const result = await runAgentSession({
        agentName: agent.name,
        command: agent.command,
        nodeId: node.id,
        cwd,
        stageDir: request.stageDir,
        // A continued session already holds the thread's history; a new one needs the summary.
        prompt: (resumed) => composeAgentPrompt(request, { withSummary: !resumed }),
        agentEnv: {
          ...definedEnv(baseEnv),
          ...(request.traceparent ? { TRACEPARENT: request.traceparent } : {}),
        },
        terminalEnv: filterSecretEnv(baseEnv, request.envPassthrough ?? []),
        mcpServers: options.config.mcpServers.map(toMcpServer),
        policy: policy === 'ask' && options.autoApprove ? 'allow' : policy,
        ...definedFields({ interviewer: request.interviewer }),
        ...(resumeSessionId ? { resumeSessionId } : {}),
        initTimeoutMs: options.config.initTimeoutMs,
        cancelGraceMs: options.config.cancelGraceMs,
        ...definedFields({ processes: request.processes }),
        ...sandboxOf(request, cwd),
        signal: request.signal,
        emit,
      });
      if (threadKey && result.sessionId) threads.set(threadKey, result.sessionId);
      emit('agent.session_end', {
        agent: agent.name,
        session_id: result.sessionId ?? null,
        stop_reason: result.stopReason ?? null,
        resumed: result.resumed,
        ...(result.failure ? { error: result.failure } : {}),
      });
      if (result.failure) {
        return { response: result.message, outcome: { status: 'fail', failure_reason: result.failure } };
      }
      return {
        response: result.message,
        outcome: { status: 'success', notes: `Agent ${agent.name} ended its turn` },
      };
    },
  };
}

/** The terminals' sandbox: the working directory and the stage folder (where the agent reports) writable. */
function sandboxOf(request: CodergenRequest, cwd: string): { sandbox?: SandboxSpec } {
  const sandbox = request.sandbox?.([cwd, request.stageDir]);
  return sandbox ? { sandbox } : {};
}
