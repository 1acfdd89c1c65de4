import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../helpers/ensure-dist.js';

interface RunView {
  state: string;
  completed: string[];
  events: string[];
  question?: string;
}

// The example imports `attractor` as users do, through the package's exports map (dist/).
describe('examples/embed: a pipeline inside an HTTP service', () => {
  const runsRoot = mkdtempSync(join(tmpdir(), 'attractor-embed-'));
  let server: { port: number; close: () => Promise<void> };
  beforeAll(async () => {
    ensureDist();
    const example: string = '../../examples/embed/pipeline-server.mjs';
    const { startPipelineServer } = (await import(/* @vite-ignore */ example)) as {
      startPipelineServer: (port: number, options?: { runsRoot?: string }) => Promise<typeof server>;
    };
    server = await startPipelineServer(0, { runsRoot });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    // Every run's folder went there, not into the system's temp folder.
    expect(readdirSync(runsRoot).every((name) => name.startsWith('release-'))).toBe(true);
    rmSync(runsRoot, { recursive: true, force: true });
  });

  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
  const view = async (id: string) => (await (await fetch(url(`/runs/${id}`))).json()) as RunView;
  async function until(id: string, state: string): Promise<RunView> {
    for (;;) {
      const v = await view(id);
      if (v.state === state) return v;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('starts a run, waits at the human gate for an answer over HTTP, then completes', async () => {
    const created = (await (await fetch(url('/runs'), { method: 'POST' })).json()) as { id: string };
    const waiting = await until(created.id, 'waiting');
    expect(waiting.question).toBe('Publish the notes?');
    expect(waiting.completed).toEqual(['start', 'draft']);

    expect((await fetch(url(`/runs/${created.id}/answer`), { method: 'POST', body: 'X' })).status).toBe(400);
    expect((await fetch(url(`/runs/${created.id}/answer`), { method: 'POST', body: 'A' })).status).toBe(200);
    const done = await until(created.id, '__completed');
    expect(done.completed).toEqual(['start', 'draft', 'review', 'publish', 'exit']);
    expect(done.events).toContain('pipeline.complete exit');
  });
});
