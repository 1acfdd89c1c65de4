import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { serverSandbox } from '../shared/sandbox/server-sandbox.js';
import { isWildcard } from './allowed-hosts.js';
import type { AuditLog } from './audit/audit-log.js';
import { openAuditLog } from './audit/open-audit-log.js';
import { readAccessFile } from './auth/access-file.js';
import { fourEyesStartRefusal } from './auth/four-eyes.js';
import { recordedStarter } from './auth/four-eyes-guard.js';
import { type AuthStores, openAuthStores } from './auth/open-auth-stores.js';
import { openSignIn } from './auth/open-sign-in.js';
import { createServerApp } from './create-server-app.js';
import { DatabaseRuns } from './database-runs.js';
import { FileRunStore } from './file-run-store.js';
import { listenError } from './listen-error.js';
import { LocalRuns, type LocalRunsOptions } from './local-runs.js';
import type { NotifySettings } from './notify/notify-settings.js';
import { openFileNotifier } from './notify/open-notifier.js';
import { PostgresRunStore } from './postgres/postgres-run-store.js';
import { remoteRuns } from './postgres/remote-runs.js';
import { RunQueue } from './postgres/run-queue.js';
import type { RunService } from './run-service.js';
import type { RunStore } from './run-store.js';
import { allowedWorkdirRoots, refuseDataDirInWork } from './run-working-dir.js';
import {
  isLoopback,
  type ServerOptions,
  type ServerOptionsInput,
  ServerOptionsSchema,
} from './server-options.js';

export interface RunningServer {
  url: string;
  port: number;
  manager: RunService;
  /** The routes it serves (method and path pattern): what `ROUTE_RULES` must cover. */
  routes: readonly { method: string; path: string }[];
  /** Stop taking runs, pause running ones at their next node (checkpointed), then close the socket. */
  drain(): Promise<void>;
  /**
   * Close the socket now (runs are left as they are; a restart lists them as interrupted); resolves
   * once the store has written what it was told so far.
   */
  close(): Promise<void>;
}

/**
 * Start `attractor serve`: the run store under `dataDir`, the run manager, the HTTP API on `host:port`.
 * The socket is bound first: a port in use (`PORT_IN_USE`) leaves the data directory untouched, so a
 * second server started by mistake never marks the first one's runs as interrupted.
 *
 * @example
 * const server = await startServer({ port: 0, dataDir: '.attractor-server' });
 * await fetch(`${server.url}/pipelines`, { method: 'POST', body: JSON.stringify({ dot_source, dry_run: true }) });
 */
export async function startServer(
  input: ServerOptionsInput,
  extra: ServerExtras = {},
): Promise<RunningServer> {
  const parsed = ServerOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.join('.') ?? '';
    const value = issue ? readPath(input, issue.path) : undefined;
    throw new AttractorError(
      'BAD_SERVER_OPTION',
      `server option ${at}${value === undefined ? '' : ` ${JSON.stringify(value)}`}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  const options = parsed.data;
  const token = options.token ?? process.env['ATTRACTOR_TOKEN'];
  if (!isLoopback(options.host) && !token) {
    throw new AttractorError(
      'TOKEN_REQUIRED',
      `listening on ${options.host} exposes the server beyond this machine: set --token (or ATTRACTOR_TOKEN), and clients send "Authorization: Bearer <token>".`,
    );
  }
  if (isWildcard(options.host) && options.allowedHosts.length === 0) {
    throw new AttractorError(
      'ALLOWED_HOSTS_REQUIRED',
      `listening on ${options.host || 'every interface'} answers any address of this machine: name the host names or addresses clients will use with --allowed-host NAME (repeatable), so requests for other names (DNS rebinding) are refused.`,
    );
  }
  if (options.store && options.allowWorkdirs.length > 0) {
    throw new AttractorError(
      'BAD_SERVER_OPTION',
      'with --store, runs execute on workers: give --allow-workdir to `attractor worker` on each machine, not to the server (it checks only the shape of a working_dir; each worker checks its own folders).',
    );
  }
  // Before the socket: a folder that does not exist is a typo to fix, not a server to start.
  const workdirRoots = allowedWorkdirRoots(options.allowWorkdirs);
  const access = options.access !== undefined ? readAccessFile(options.access) : undefined;
  const oidc = openSignIn(options, access);
  let app: Hono | undefined;
  const server = createAdaptorServer({
    hostname: options.host,
    // Nothing is accepted before the app exists; the guard is for the one turn between the two.
    fetch: (request, env) => (app ? app.fetch(request, env) : new Response('starting', { status: 503 })),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(listenError(error, options.host, options.port)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  let opened: OpenedRuns;
  try {
    opened = await openRuns(options, extra, workdirRoots, `http://${urlHost(options.host)}:${port}`);
  } catch (error) {
    server.close();
    throw error;
  }
  const { manager, store, queue } = opened;
  let stores: AuthStores | undefined;
  let audit: AuditLog | undefined;
  try {
    stores = await openAuthStores(options, oidc !== undefined);
    const { tokens, roles, sessions } = stores;
    const refusal = fourEyesStartRefusal({
      fourEyes: options.fourEyes,
      signInConfigured: oidc !== undefined,
      personalTokens: await tokens.configured(),
    });
    if (refusal) throw new AttractorError('FOUR_EYES_NEEDS_NAMES', refusal);
    if (options.resumeInterrupted) await manager.resumeInterrupted();
    const signIn = oidc && sessions && { oidc, sessions };
    const auth = {
      serverToken: token,
      tokens,
      roles,
      starter: recordedStarter,
      ...definedFields({ access, signIn }),
    };
    audit = await openAuditLog(options);
    app = createServerApp(manager, { ...options, ...(token ? { token } : {}) }, auth, () => port, audit);
  } catch (error) {
    server.close();
    await stores?.close();
    await audit?.close();
    await queue?.close();
    await store.close?.();
    throw error;
  }
  const openedStores = stores;
  const host = urlHost(options.host);
  let storeClosed: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // SSE subscribers keep connections open: end them so close() finishes.
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    storeClosed ??= (async () => {
      await openedStores.close();
      await queue?.close();
      await store.close?.();
      await audit?.close();
      await opened.closeNotifier?.();
    })();
    await storeClosed;
  };
  return {
    url: `http://${host}:${port}`,
    port,
    manager,
    routes: (app?.routes ?? [])
      .filter((r) => r.method !== 'ALL')
      .map(({ method, path }) => ({ method, path })),
    close,
    async drain() {
      await manager.drain();
      await close();
      await extra.telemetry?.shutdown();
    },
  };
}

/** What a server is given besides its options: how real runs run, the sandbox, traces, notifications. */
export type ServerExtras = Pick<LocalRunsOptions, 'realRuns' | 'sandbox' | 'telemetry'> & {
  /** Webhooks when a gate waits, is answered, or a run ends (`--notify`); runs executed here only. */
  notify?: NotifySettings;
};

interface OpenedRuns {
  manager: RunService;
  store: RunStore;
  queue?: RunQueue;
  /** Stops sending notifications (what is pending stays for the next start). */
  closeNotifier?: () => Promise<void>;
}

/**
 * The server's runs: with a PostgreSQL store they execute on workers (`attractor worker`) and this
 * server schedules, streams, answers and cancels them; else they execute here, on the file store.
 */
async function openRuns(
  options: ServerOptions,
  extra: ServerExtras,
  workdirRoots: string[],
  url: string,
): Promise<OpenedRuns> {
  if (options.store && extra.notify) {
    throw new AttractorError(
      'BAD_SERVER_OPTION',
      'with --store, runs execute on workers and their notifications go through the database: give --notify (and --notify-secret-file, --public-url) to `attractor worker`. Every worker started with --notify queues the notifications of the runs it executes and sends any that are pending, so one that stops strands none.',
    );
  }
  if (!options.store) {
    // Runs work in this process's folder (or the agents' folder an embedder names): never where its data is.
    refuseDataDirInWork(options.dataDir, [
      process.cwd(),
      ...(extra.realRuns ? [extra.realRuns.workingDir] : []),
    ]);
    const store = new FileRunStore(options.dataDir);
    const { notify, ...rest } = extra;
    // The outbox sends on a later turn, when `manager` is set: a delivery it gives up goes to the run's log.
    let manager: LocalRuns | undefined;
    const notifications = notify
      ? openFileNotifier(notify, options.dataDir, url, async (id, event) => manager?.recordAside(id, event))
      : undefined;
    manager = new LocalRuns({
      store,
      maxConcurrentRuns: options.maxConcurrentRuns,
      allowTools: options.allowTools,
      allowDirs: options.allowDirs,
      // One process keeps working where it was started unless a run names an allowed folder.
      workingDirs: { roots: workdirRoots, perRun: false, who: 'this server', dataDir: options.dataDir },
      ...rest,
      ...(notifications ? { notifier: notifications.notifier } : {}),
      // Refuses to start without a working sandbox unless the caller chose one (`--unsandboxed`).
      sandbox: extra.sandbox ?? serverSandbox(false, options.dataDir, 'serve'),
    });
    return { manager, store, ...(notifications ? { closeNotifier: notifications.close } : {}) };
  }
  const store = await PostgresRunStore.open(options.store, options.dataDir, (error) =>
    process.stderr.write(`attractor serve: the PostgreSQL store: ${error.message}\n`),
  );
  const queue = await RunQueue.open(options.store).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const manager = new DatabaseRuns({
    store,
    runs: remoteRuns(store, queue),
    allowTools: options.allowTools,
    allowDirs: options.allowDirs,
    realRuns: extra.realRuns !== undefined,
  });
  return { manager, store, queue };
}

/** A host as it stands in a URL (an IPv6 address in brackets). */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function readPath(value: unknown, keys: readonly PropertyKey[]): unknown {
  let at: unknown = value;
  for (const key of keys) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}
