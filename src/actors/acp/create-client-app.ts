import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { type ClientApp, client, methods } from '@agentclientprotocol/sdk';
import { definedFields } from '../../shared/defined-fields.js';
import type { Interviewer } from '../interviewers/interviewer.js';
import { readTextFile, writeTextFile } from './agent-file-system.js';
import type { AgentTerminals } from './agent-terminals.js';
import { answerPermission, type PermissionPolicy } from './answer-permission.js';

export interface ClientAppOptions {
  /** Confinement roots of the file system methods: the working directory, the stage directory. */
  roots: readonly string[];
  terminals: AgentTerminals;
  policy: PermissionPolicy;
  interviewer?: Interviewer;
  nodeId: string;
  /** Aborted when the node visit is. */
  signal: AbortSignal;
  onUpdate(sessionId: string, update: SessionUpdate): void;
  /** A client-side failure the agent only sees as a JSON-RPC error (no interviewer, say): for the node's message. */
  onHandlerError?(error: unknown): void;
  /** A file the agent wrote through the client (absolute, real path). */
  onFileWritten?(file: string): void;
}

/**
 * The client half of ACP for one node visit, on the SDK's client app: every request an agent may send
 * is answered for real (files confined to the workspace, terminals in their own process groups,
 * permissions by policy); `session/update` goes to `onUpdate`.
 */
export function createClientApp(options: ClientAppOptions): ClientApp {
  const { roots, terminals } = options;
  return client({ name: 'attractor' })
    .onNotification(methods.client.session.update, ({ params }) => {
      options.onUpdate(params.sessionId, params.update);
    })
    .onRequest(methods.client.fs.readTextFile, ({ params }) => ({ content: readTextFile(params, roots) }))
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      // Not inside `onFileWritten?.(...)`: an optional call skips evaluating its arguments.
      const file = writeTextFile(params, roots);
      options.onFileWritten?.(file);
      return {};
    })
    .onRequest(methods.client.session.requestPermission, async ({ params, signal }) => {
      try {
        return await answerPermission(params, {
          policy: options.policy,
          ...definedFields({ interviewer: options.interviewer }),
          stage: options.nodeId,
          signal: AbortSignal.any([signal, options.signal]),
        });
      } catch (error) {
        options.onHandlerError?.(error);
        throw error;
      }
    })
    .onRequest(methods.client.terminal.create, ({ params }) => ({ terminalId: terminals.create(params) }))
    .onRequest(methods.client.terminal.output, ({ params }) => terminals.output(params.terminalId))
    .onRequest(methods.client.terminal.waitForExit, async ({ params }) => {
      const status = await terminals.waitForExit(params.terminalId);
      return { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
    })
    .onRequest(methods.client.terminal.kill, async ({ params }) => {
      await terminals.kill(params.terminalId);
      return {};
    })
    .onRequest(methods.client.terminal.release, async ({ params }) => {
      await terminals.release(params.terminalId);
      return {};
    });
}
