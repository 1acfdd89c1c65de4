import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { AttractorError } from '../shared/errors.js';
import { createServerApp } from './create-server-app.js';
import { FileRunStore } from './file-run-store.js';
import { RunManager, type RunManagerOptions } from './run-manager.js';
import { isLoopback, type ServerOptionsInput, ServerOptionsSchema } from './server-options.js';

export interface RunningServer {
  url: string;
  port: number;
  manager: RunManager;
  /** Stop taking runs, pause running ones at their next node (checkpointed), then close the socket. */
  drain(): Promise<void>;
  /** Close the socket now (runs are left as they are; a restart lists them as interrupted). */
  close(): Promise<void>;
}

/**
 * Start `attractor serve`: the run store under `dataDir`, the run manager, the HTTP API on `host:port`.
 *
 * @example
 * const server = await startServer({ port: 0, dataDir: '.attractor-server' });
 * await fetch(`${server.url}/pipelines`, { method: 'POST', body: JSON.stringify({ dot_source, dry_run: true }) });
 */
export async function startServer(
  input: ServerOptionsInput,
  extra: Pick<RunManagerOptions, 'realRunOptions'> = {},
): Promise<RunningServer> {
  const options = ServerOptionsSchema.parse(input);
  const token = options.token ?? process.env['ATTRACTOR_TOKEN'];
  if (!isLoopback(options.host) && !token) {
    throw new AttractorError(
      'TOKEN_REQUIRED',
      `listening on ${options.host} exposes the server beyond this machine: set --token (or ATTRACTOR_TOKEN), and clients send "Authorization: Bearer <token>".`,
    );
  }
  const manager = new RunManager({
    store: new FileRunStore(options.dataDir),
    maxConcurrentRuns: options.maxConcurrentRuns,
    allowTools: options.allowTools,
    allowDirs: options.allowDirs,
    ...extra,
  });
  if (options.resumeInterrupted) manager.resumeInterrupted();
  const app = createServerApp(manager, { ...options, ...(token ? { token } : {}) });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => resolve());
      // SSE subscribers keep connections open: end them so close() finishes.
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  return {
    url: `http://${host}:${port}`,
    port,
    manager,
    close,
    async drain() {
      await manager.drain();
      await close();
    },
  };
}
