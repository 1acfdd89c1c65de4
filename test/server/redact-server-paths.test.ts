import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverPathRedactor } from '../../src/server/redact-server-paths.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closeServers, testServer } from './server-fixtures.js';

afterEach(closeServers);

describe('serverPathRedactor', () => {
  const redact = serverPathRedactor({
    dataDir: '/srv/attractor/data',
    allowDirs: ['/srv/pipelines'],
    allowWorkdirs: ['/srv/work'],
  });

  it.each([
    ['/srv/pipelines/team/a.dot:1:16: Unexpected "}"', 'team/a.dot:1:16: Unexpected "}"'],
    [
      'cannot read checkpoint /srv/attractor/data/runs/x/checkpoint.json.',
      'cannot read checkpoint <data-dir>/runs/x/checkpoint.json.',
    ],
    ['working_dir "/srv/work/app" is fine', 'working_dir "<allow-workdir>/app" is fine'],
    ['the data dir is /srv/attractor/data', 'the data dir is <data-dir>'],
    ['/srv/pipelines2/x is another folder', '/srv/pipelines2/x is another folder'],
    [`a file in ${os.homedir()}/.ssh`, 'a file in ~/.ssh'],
    [`${process.cwd()}/.env`, '<server-dir>/.env'],
    ['no route GET /pipelines/x/nodes', 'no route GET /pipelines/x/nodes'],
  ])('%s → %s', (text, shown) => {
    expect(redact({ error: { message: text, nested: [{ file: text }] } })).toEqual({
      error: { message: shown, nested: [{ file: shown }] },
    });
  });
});

describe('error answers of a real server', () => {
  it('name a pipeline by its dot_path, never by the server folders', async () => {
    const allow = tempDir('attractor-allow-');
    fs.writeFileSync(path.join(allow, 'bad.dot'), 'digraph { a -> }');
    fs.writeFileSync(
      path.join(allow, 'missing.dot'),
      'digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; a [prompt="@nope.md"]; start -> a -> exit }',
    );
    const server = await testServer({ allowDirs: [allow] });
    for (const dot_path of ['bad.dot', 'missing.dot']) {
      const { status, body } = await server.json('POST', '/pipelines', { dot_path, dry_run: true });
      expect(status).toBe(400);
      const text = JSON.stringify(body);
      expect(text).toContain(dot_path);
      expect(text).not.toContain(allow);
      expect(text).not.toContain(fs.realpathSync(allow));
      expect(text).not.toContain(server.dataDir);
    }
  });
});
