import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { createAgentBackend } from '../../../src/actors/codergen/agent-backend.js';
import { configuredProviders } from '../../../src/actors/codergen/configured-providers.js';
import { UsageLedger } from '../../../src/actors/codergen/usage-ledger.js';
import { AutoApproveInterviewer } from '../../../src/actors/interviewers/auto-approve.js';
import { LLMClient } from '../../../src/llm/index.js';
import { ScriptedAdapter } from '../../../src/llm/testing/index.js';
import { startPipeline } from '../../../src/run/engine.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the agent session in the actor system', () => {
  it("runs as a child of the codergen node's handler actor, so an inspector sees it under the node", async () => {
    const workingDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-session-actor-')));
    dirs.push(workingDir);
    const client = new LLMClient({
      adapters: [new ScriptedAdapter({ name: 'anthropic', turns: [{ text: 'done' }] })],
    });
    const backend = createAgentBackend({
      client,
      workingDir,
      providers: configuredProviders({ ANTHROPIC_API_KEY: 'k' }),
      ledger: new UsageLedger(),
    });
    const actors = new Map<string, { id: string; parent?: string }>();
    const inspect = (event: InspectionEvent): void => {
      if (event.type !== '@xstate.actor') return;
      const ref = event.actorRef as unknown as {
        sessionId: string;
        id: string;
        _parent?: { sessionId: string };
      };
      actors.set(ref.sessionId, { id: ref.id, ...(ref._parent ? { parent: ref._parent.sessionId } : {}) });
    };
    const run = startPipeline({
      source: `digraph g { start [shape=Mdiamond]; exit [shape=Msquare]; work [prompt="go", llm_model="claude-sonnet-4-6"]; start -> work -> exit }`,
      runDir: path.join(workingDir, 'run'),
      backend,
      interviewer: new AutoApproveInterviewer(),
      workingDir,
      durable: false,
      inspect,
    });
    expect((await run.result).status).toBe('completed');
    const session = [...actors.values()].find((a) => a.id.startsWith('agent-session-'));
    expect(session?.parent).toBeDefined();
    const parent = actors.get(session?.parent ?? '');
    // The parent is the handler actor the node's `run` state invokes (named after the node), itself a
    // child of the pipeline actor.
    expect(parent?.id).toBe('work');
    const root = actors.get(parent?.parent ?? '');
    expect(root).toBeDefined();
    expect(root?.parent).toBeUndefined();
  });
});
