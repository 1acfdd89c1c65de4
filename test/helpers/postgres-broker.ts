/**
 * vitest globalSetup: one throwaway PostgreSQL cluster for the whole test run, started on first request,
 * with the database that ready databases are copied from (test/helpers/postgres-shared-cluster.ts).
 *
 * initdb costs seconds of CPU, so the test files that need PostgreSQL share one cluster and each gets
 * fresh databases in it (test/helpers/postgres-cluster.ts). The cluster is started lazily, by the first
 * test file that asks the broker for it, so a run without such files never pays for it; it is stopped
 * and deleted when the run ends.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { TestProject } from 'vitest/node';
import { postgresBin, startPostgresCluster } from '../../bench/lib/postgres-cluster.mjs';
import type { SharedCluster } from './postgres-shared-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The broker's URL: a GET answers the shared cluster's `{url, port, socketDir, template}` (or 500 and why). */
    postgresBroker: string;
  }
}

let server: Server | undefined;
let cluster: Promise<SharedCluster> | undefined;

export async function setup(project: TestProject): Promise<void> {
  // Without PostgreSQL there is nothing to share; the tests say so themselves (ATTRACTOR_PG_TESTS).
  if (!postgresBin()) return;
  const broker = createServer((_request, response) => {
    // Loaded here, not at the top: a run that never asks for PostgreSQL does not load the store's code.
    cluster ??= Promise.all([startPostgresCluster(), import('./postgres-shared-cluster.js')]).then(
      ([started, { sharedCluster }]) => sharedCluster(started),
    );
    cluster.then(
      (c) => {
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({ url: c.url, port: c.port, socketDir: c.socketDir, template: c.template }),
        );
      },
      (error: unknown) => {
        response.statusCode = 500;
        response.end(error instanceof Error ? error.message : String(error));
      },
    );
  });
  server = broker;
  const port = await new Promise<number>((resolve, reject) => {
    broker.once('error', reject);
    broker.listen(0, '127.0.0.1', () => {
      const address = broker.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  project.provide('postgresBroker', `http://127.0.0.1:${port}/`);
}

export async function teardown(): Promise<void> {
  server?.close();
  const started = await cluster?.catch(() => undefined);
  if (!started) return;
  await started.stop();
  // The harness promises a throwaway cluster: nothing of it may outlive the run.
  if (existsSync(started.socketDir)) throw new Error(`PostgreSQL left ${started.socketDir} behind`);
}
