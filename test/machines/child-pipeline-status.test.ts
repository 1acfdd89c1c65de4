import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventOf, runDot, tempDir } from '../helpers/run-helpers.js';

describe('manager loop over a child pipeline that does not complete', () => {
  it('a child that fails makes the manager node FAIL, not SUCCESS', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'child.dot'),
      `digraph child {
        start [shape=Mdiamond]
        broken [shape=parallelogram, tool_command="exit 3"]
        exit [shape=Msquare]
        start -> broken -> exit
      }`,
    );
    const parent = `digraph parent {
      start [shape=Mdiamond]
      boss [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="10ms", manager.max_cycles=100]
      exit [shape=Msquare]
      start -> boss -> exit
    }`;
    const file = join(dir, 'parent.dot');
    writeFileSync(file, parent);
    const run = await runDot(parent, { file });
    const boss = eventOf(run.events, 'node.complete', 'boss');
    expect(boss?.data.status).toBe('fail');
    expect(String(boss?.data.failure_reason)).toContain('Child failed');
    expect(run.result.status).toBe('failed');
  });
});
