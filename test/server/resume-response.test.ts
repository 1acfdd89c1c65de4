import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileRunStore } from '../../src/server/file-run-store.js';
import { closeServers, LINEAR_PIPELINE, testServer } from './server-fixtures.js';

afterEach(closeServers);

describe('POST /pipelines/{id}/resume', () => {
  it('answers with the resumed run, not the previous attempt’s quality, failure or stop', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-serve-'));
    const now = new Date().toISOString();
    const store = new FileRunStore(dataDir);
    store.create(
      {
        id: 'paused-run',
        name: 'linear',
        goal: '',
        status: 'paused',
        created_at: now,
        updated_at: now,
        source_file: '<inline>',
        options: { dry_run: true, auto_approve: false },
        quality: 'degraded',
        stopped_at: 'a',
        failure: { node: 'a', reason: 'budget spent' },
      },
      LINEAR_PIPELINE,
    );
    await store.flush();
    const server = await testServer({ dataDir });
    const resumed = await server.json('POST', '/pipelines/paused-run/resume');
    expect(resumed.status).toBe(202);
    expect(resumed.body).not.toHaveProperty('quality');
    expect(resumed.body).not.toHaveProperty('failure');
    expect(resumed.body).not.toHaveProperty('stopped_at');
  });
});
