import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { loadPipeline } from '../../src/compiler/compile.js';
import type { MachineConfig } from '../../src/compiler/lower/machine-config.js';
import { createPipelineMachine } from '../../src/run/provide-pipeline.js';
import { runCli } from './run-cli.js';

const example = fileURLToPath(new URL('../../examples/09-conditions.dot', import.meta.url));
const runDir = mkdtempSync(join(tmpdir(), 'attractor-xstate-'));
afterAll(() => rmSync(runDir, { recursive: true, force: true }));

describe('compile --format xstate', () => {
  it('shows each condition and label in the guards, and the printed JSON runs with the published implementations', async () => {
    const printed = await runCli(['compile', example, '--format', 'xstate']);
    expect(printed.code).toBe(0);
    const config = JSON.parse(printed.stdout) as MachineConfig;
    // The `route` node's routing: the transitions of its route state.
    const route = config.states['route']?.states?.['route']?.always ?? [];
    const params = route.filter((t) => t.guard?.type === 'routesToEdge').map((t) => t.guard?.params);
    expect(params).toEqual([
      expect.objectContaining({
        target: 'hotfix',
        condition: 'context.severity>=4 && (area=api || area=db)',
        weight: 10,
      }),
      expect.objectContaining({ target: 'docs_fix', condition: 'area in [docs, readme]', weight: 5 }),
      expect.objectContaining({
        target: 'ask_more',
        condition: '!context.summary || summary contains "cannot reproduce"',
      }),
      expect.objectContaining({ target: 'schedule', label: 'schedule', llm_decide: true }),
      expect.objectContaining({ target: 'hotfix', label: 'hotfix', llm_decide: true }),
    ]);

    // The JSON, not the compiler's object: load it with the published implementations and run it.
    const { graph } = loadPipeline(readFileSync(example, 'utf8'), { file: example });
    const registry = createDefaultRegistry().register('codergen', async ({ node }) =>
      node.id === 'classify'
        ? { status: 'success', context_updates: { severity: 5, area: 'db', summary: 'crash' } }
        : { status: 'success' },
    );
    const machine = createPipelineMachine(config, graph, { registry });
    const actor = createActor(machine, { input: { startAt: 'start', runDir, values: {}, maxSteps: 50 } });
    actor.start();
    await toPromise(actor).catch(() => undefined);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('__completed');
    expect(snapshot.context.completedNodes).toEqual(['start', 'classify', 'route', 'hotfix', 'exit']);
  });
});
