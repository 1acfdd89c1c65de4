import { describe, expect, it } from 'vitest';
import { AutoApproveInterviewer } from '../../src/actors/interviewers/auto-approve.js';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { createSimulatedBackend } from '../../src/actors/simulated-backend.js';
import { compile } from '../../src/compiler/compile.js';
import { createServices } from '../../src/machines/services.js';
import { tempDir } from './run-helpers.js';

const DOT = `digraph g {
  start [shape=Mdiamond]
  fan [shape=component]
  a
  b
  join [shape=tripleoctagon]
  exit [shape=Msquare]
  start -> fan
  fan -> a -> b -> join
  fan -> join
  join -> exit
}`;

function services() {
  const { graph, config } = compile(DOT);
  const events: Array<{ kind: string; nodeId: string | undefined }> = [];
  const s = createServices({
    graph,
    config,
    runDir: tempDir(),
    registry: createDefaultRegistry(),
    interviewer: new AutoApproveInterviewer(),
    backend: createSimulatedBackend(),
    hardAbort: new AbortController().signal,
    maxSteps: 100,
    emit: (kind, _data, nodeId) => events.push({ kind, nodeId }),
  });
  return { services: s, events };
}

describe('services.runBranch', () => {
  it('runs a branch to the fan-in on its own context', async () => {
    const { services: s, events } = services();
    const result = await s.runBranch({
      branchId: 'a',
      startNodeId: 'a',
      context: { seed: 1 },
      signal: new AbortController().signal,
    });
    expect(result.stoppedAt).toBe('join');
    expect(result.outcome.status).toBe('success');
    expect(events.filter((e) => e.kind === 'node.start').map((e) => e.nodeId)).toEqual(['a', 'b']);
  });

  it('does not run a branch whose signal is already aborted', async () => {
    const { services: s, events } = services();
    const controller = new AbortController();
    controller.abort(new Error('parallel node cancelled'));
    const result = await s.runBranch({
      branchId: 'a',
      startNodeId: 'a',
      context: {},
      signal: controller.signal,
    });
    expect(result.outcome.status).toBe('fail');
    expect(events.filter((e) => e.kind.startsWith('node.'))).toEqual([]);
  });
});
