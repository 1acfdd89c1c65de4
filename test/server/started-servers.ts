import { afterEach } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/start-server.js';

/**
 * Servers a test starts and may stop and start again (a restart, a second server on one database);
 * whatever is still running when the test ends is closed.
 */
export function startedServers() {
  const running = new Set<RunningServer>();
  afterEach(async () => {
    for (const server of running) await server.close();
    running.clear();
  });
  return {
    async serve(options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
      const server = await startServer({ port: 0, ...options });
      running.add(server);
      return server;
    },
    async stop(server: RunningServer): Promise<void> {
      running.delete(server);
      await server.close();
    },
  };
}
