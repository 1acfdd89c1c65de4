import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';

const LOOP = fileURLToPath(new URL('../fixtures/run/long-loop.mjs', import.meta.url));

// The recorder writes behind the machine; a loop of routing nodes, which never waits for a record, once
// outran it and held every step's writes until the run settled (780 MB of heap at 100,000 steps): 60,000
// steps ran out of a 100 MB heap, where 20,000 still fit; the length is what makes this a proof.
describe('a long loop of routing nodes', () => {
  beforeAll(() => ensureDist(), 180_000);

  it('runs 60,000 steps in a 100 MB heap', () => {
    const runsRoot = tempDir('attractor-long-loop-');
    const child = spawnSync(process.execPath, ['--max-old-space-size=100', LOOP, runsRoot, '60000'], {
      encoding: 'utf8',
      timeout: 170_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ status: 'completed', stoppedAt: 'exit' });
  }, 180_000);
});
