import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentBackend } from '../../../../src/actors/agent/backend/agent-backend.js';
import type {
  ExecOptions,
  ExecResult,
} from '../../../../src/actors/agent/environment/execution-environment.js';
import { LocalExecutionEnvironment } from '../../../../src/actors/agent/environment/local-execution-environment.js';
import {
  COMPACTION_SUMMARY_HEADER,
  SUMMARIZATION_PROMPT,
} from '../../../../src/actors/agent/session/compact-history.js';
import { defineTool } from '../../../../src/actors/agent/tools/define-tool.js';
import type { CodergenRequest } from '../../../../src/actors/codergen-backend.js';
import { compile } from '../../../../src/compiler/compile.js';
import { ContextLengthError, LLMClient } from '../../../../src/llm/index.js';
import { ScriptedAdapter, type ScriptedTurn } from '../../../../src/llm/testing/index.js';

// What a library user gets with the fewest options: a client, and their tools and environment.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const graph = compile(`digraph g { graph [auto_compact=true, env_passthrough="DEPLOY_TOKEN"]
  start [shape=Mdiamond]; exit [shape=Msquare];
  build [prompt="build it"]; ship [prompt="ship it", auto_compact=false]; start -> build -> ship -> exit; }`).graph;

function setup(turns: ScriptedTurn[]) {
  const workingDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-backend-lib-')));
  dirs.push(workingDir);
  const adapter = new ScriptedAdapter({ name: 'openai', turns });
  const request = (id: string): CodergenRequest => {
    const stageDir = path.join(workingDir, 'run', id);
    mkdirSync(stageDir, { recursive: true });
    return {
      node: graph.nodes.find((n) => n.id === id)!,
      prompt: `prompt of ${id}`,
      contextSummary: '',
      fidelity: 'compact',
      stageDir,
      workingDir,
      signal: new AbortController().signal,
      emit: () => {},
    };
  };
  return { adapter, client: new LLMClient({ adapters: [adapter] }), request, workingDir };
}

const echo = (name: string) =>
  defineTool({
    name,
    description: `${name} tool`,
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }) => ({ output: `${name}: ${text}`, isError: false }),
  });

describe('createAgentBackend from the library', () => {
  it('needs only a client: a node naming no model uses the client’s provider, with its own ledger', async () => {
    const t = setup(['done']);
    const backend = createAgentBackend({ client: t.client });
    const result = await backend.run(t.request('build'));
    expect(result.outcome).toBeUndefined();
    expect(t.adapter.calls[0]!.request).toMatchObject({ provider: 'openai', model: 'gpt-5.2' });
    expect(backend.ledger.runTotals()).toMatchObject({ calls: 1 });
  });

  it('gives every node the custom tools, or each node its own through a function', async () => {
    const t = setup(['a', 'b']);
    const backend = createAgentBackend({
      client: t.client,
      tools: (node) => (node.id === 'ship' ? [echo('deploy')] : [echo('lint')]),
    });
    await backend.run(t.request('build'));
    await backend.run(t.request('ship'));
    const names = (call: number) => t.adapter.calls[call]!.request.tools!.map((tool) => tool.name);
    expect(names(0)).toContain('lint');
    expect(names(0)).not.toContain('deploy');
    expect(names(1)).toContain('deploy');
  });

  it('runs the agent in the given environment; a factory is told the node, directory and passthrough', async () => {
    const t = setup([{ toolCalls: [{ name: 'shell', arguments: { command: 'echo hi' } }] }, 'done']);
    const seen: string[] = [];
    const commands: string[] = [];
    class Recording extends LocalExecutionEnvironment {
      override execCommand(command: string, options?: ExecOptions): Promise<ExecResult> {
        commands.push(command);
        return super.execCommand(command, options);
      }
    }
    const backend = createAgentBackend({
      client: t.client,
      graph,
      environment: ({ node, workingDir, envPassthrough }) => {
        seen.push(`${node.id} ${workingDir === t.workingDir} ${envPassthrough.join(',')}`);
        return new Recording({ workingDir });
      },
    });
    const result = await backend.run(t.request('build'));
    expect(result.outcome).toBeUndefined();
    expect(seen).toEqual(['build true DEPLOY_TOKEN']);
    expect(commands).toEqual(['echo hi']);
  });

  it('takes the graph’s agent attributes from `graph`: auto_compact on the graph, a node’s false wins', async () => {
    // The model refuses every request as too long until the history starts with a compaction summary.
    const t = setup([]);
    const adapter = new ScriptedAdapter({
      name: 'openai',
      turns: (request) => {
        if (request.systemPrompt === SUMMARIZATION_PROMPT) return 'summary of the task';
        const first = request.messages[0]!.content[0]!;
        const compacted = first.kind === 'text' && first.text.startsWith(COMPACTION_SUMMARY_HEADER);
        return compacted
          ? 'done'
          : { error: new ContextLengthError('prompt is too long', { provider: 'openai' }) };
      },
    });
    const backend = createAgentBackend({ client: new LLMClient({ adapters: [adapter] }), graph });
    expect((await backend.run(t.request('build'))).outcome).toBeUndefined();
    const shipped = await backend.run(t.request('ship'));
    expect(shipped.outcome).toMatchObject({
      status: 'fail',
      failure_reason: expect.stringContaining('too long'),
    });
    expect(adapter.calls.map((call) => call.kind)).toEqual(['stream', 'complete', 'stream', 'stream']);
  });
});
