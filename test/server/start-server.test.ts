import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startServer } from '../../src/server/start-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { GATE_PIPELINE, waitFor } from './server-fixtures.js';

it("drain() resolves once the runs' last records are on disk (the file store writes behind)", async () => {
  const dataDir = tempDir('attractor-serve-');
  const server = await startServer({ port: 0, dataDir });
  const submitted = await fetch(`${server.url}/pipelines`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ dot_source: GATE_PIPELINE, dry_run: true }),
  });
  const { id } = (await submitted.json()) as { id: string };
  await waitFor(() => (server.manager.questions(id).length > 0 ? true : undefined), 'the gate');
  await server.drain();
  const record = JSON.parse(fs.readFileSync(path.join(dataDir, 'runs', id, 'record.json'), 'utf8'));
  expect(record.status).toBe('interrupted');
});
