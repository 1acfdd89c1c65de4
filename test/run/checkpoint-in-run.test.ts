import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { readCheckpoint } from '../../src/run/checkpoint.js';
import { newestJournalCheckpoint } from '../../src/run/checkpoint-journal.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

// Each `collect` node appends its id to a list it reads from the context, in place, then sets it back:
// the stored object is the same one from step to step, changed under the checkpoint writer's feet.
const PIPELINE = `digraph in_place {
  start [shape=Mdiamond]
  a [type="collect"]
  check [shape=diamond]
  b [type="collect"]
  look [type="look"]
  exit [shape=Msquare]
  start -> a -> check -> b -> look -> exit
}`;

describe('checkpoints of a running run, as a resume would read them', () => {
  it('see a context object a handler changed in place, at every step', async () => {
    const runDir = join(tempDir(), 'run');
    const seen: { journal: unknown; read: unknown }[] = [];
    const registry = createDefaultRegistry()
      .register('collect', async ({ node, context }) => {
        const items = context.get('items', []) as string[];
        items.push(node.id);
        context.set('items', items);
        return { status: 'success' };
      })
      .register('look', async () => {
        // What a crash here would leave: the journal, and checkpoint.json behind or beside it.
        const journaled = newestJournalCheckpoint(runDir) as { context: Record<string, unknown> };
        seen.push({
          journal: journaled.context['items'],
          read: readCheckpoint(join(runDir, 'checkpoint.json')).context['items'],
        });
        return { status: 'success' };
      });
    const run = await runDot(PIPELINE, { runDir, registry });
    expect(run.result.status).toBe('completed');
    expect(seen).toEqual([{ journal: ['a', 'b'], read: ['a', 'b'] }]);
    expect(readCheckpoint(join(runDir, 'checkpoint.json')).context['items']).toEqual(['a', 'b']);
  });
});
