import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentBackend } from '../../../src/actors/codergen/agent-backend.js';
import { configuredProviders } from '../../../src/actors/codergen/configured-providers.js';
import { createLlmRouter, pickCandidate } from '../../../src/actors/codergen/llm-router.js';
import { UsageLedger } from '../../../src/actors/codergen/usage-ledger.js';
import type { CodergenRequest } from '../../../src/actors/codergen-backend.js';
import { compile } from '../../../src/compiler/compile.js';
import { AuthenticationError, LLMClient } from '../../../src/llm/index.js';
import { ScriptedAdapter, type ScriptedTurn } from '../../../src/llm/testing/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(turns: ScriptedTurn[]) {
  const workingDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-backend-')));
  dirs.push(workingDir);
  const adapter = new ScriptedAdapter({ name: 'anthropic', turns });
  const client = new LLMClient({ adapters: [adapter] });
  const ledger = new UsageLedger();
  const providers = configuredProviders({ ANTHROPIC_API_KEY: 'k' });
  const backend = createAgentBackend({ client, workingDir, providers, ledger });
  const graph = compile(`digraph g { start [shape=Mdiamond]; exit [shape=Msquare];
    a [prompt="one", llm_model="claude-sonnet-4-6"]; b [prompt="two", llm_model="claude-sonnet-4-6"];
    start -> a -> b -> exit; }`).graph;
  const events: Array<{ kind: string; nodeId?: string; data: Record<string, unknown> }> = [];
  const request = (id: string, extra: Partial<CodergenRequest> = {}): CodergenRequest => {
    const stageDir = path.join(workingDir, 'run', id);
    mkdirSync(stageDir, { recursive: true });
    return {
      node: graph.nodes.find((n) => n.id === id)!,
      prompt: `prompt of ${id}`,
      contextSummary: `summary before ${id}`,
      fidelity: 'compact',
      model: 'claude-sonnet-4-6',
      stageDir,
      signal: new AbortController().signal,
      emit: (kind, data, nodeId) => events.push({ kind, ...(nodeId ? { nodeId } : {}), data }),
      ...extra,
    };
  };
  return { adapter, client, ledger, providers, backend, request, events, workingDir };
}

const userTexts = (adapter: ScriptedAdapter, call: number): string[] =>
  adapter.calls[call]!.request.messages.filter((m) => m.role === 'user').flatMap((m) =>
    m.content.flatMap((p) => (p.kind === 'text' ? [p.text] : [])),
  );

describe('createAgentBackend', () => {
  it('runs one session per visit: summary then prompt, agent.* events, usage booked on the node', async () => {
    const t = setup([{ text: 'did a', usage: { inputTokens: 1_000_000, outputTokens: 0 } }]);
    const result = await t.backend.run(t.request('a'));
    expect(result.response).toBe('did a');
    expect(result.outcome).toBeUndefined();
    expect(userTexts(t.adapter, 0)).toEqual(['summary before a\n\nprompt of a']);
    expect(t.events.map((e) => e.kind)).toEqual(
      expect.arrayContaining([
        'agent.session_start',
        'agent.assistant_text_delta',
        'agent.usage',
        'agent.session_end',
      ]),
    );
    expect(t.events.every((e) => e.nodeId === 'a')).toBe(true);
    expect(result.usage).toMatchObject({ calls: 1, input_tokens: 1_000_000, cost_usd: 3 });
    expect(t.adapter.calls[0]!.request.systemPrompt).toContain('run/a/status.json');
  });

  it('full fidelity continues the thread: the next node sees the earlier conversation, not a summary', async () => {
    const t = setup(['did a', 'did b']);
    await t.backend.run(t.request('a', { fidelity: 'full', threadId: 'main' }));
    await t.backend.run(t.request('b', { fidelity: 'full', threadId: 'main' }));
    expect(userTexts(t.adapter, 1)).toEqual(['summary before a\n\nprompt of a', 'prompt of b']);
  });

  it('other fidelities start fresh even with a thread id', async () => {
    const t = setup(['did a', 'did b']);
    await t.backend.run(t.request('a', { fidelity: 'compact', threadId: 'main' }));
    await t.backend.run(t.request('b', { fidelity: 'compact', threadId: 'main' }));
    expect(userTexts(t.adapter, 1)).toEqual(['summary before b\n\nprompt of b']);
  });

  it('an authentication failure fails the node naming the provider and the variable', async () => {
    const t = setup([{ error: new AuthenticationError('invalid x-api-key', { provider: 'anthropic' }) }]);
    const result = await t.backend.run(t.request('a'));
    expect(result.outcome?.status).toBe('fail');
    expect(result.outcome?.failure_reason).toContain('anthropic refused the request');
    expect(result.outcome?.failure_reason).toContain('ANTHROPIC_API_KEY');
  });

  it('an aborted visit throws the abort reason for the engine to handle', async () => {
    const t = setup([{ text: 'slow', delayMs: 5_000 }]);
    const controller = new AbortController();
    const visit = t.backend.run(t.request('a', { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('node timed out')), 50);
    await expect(visit).rejects.toThrow('node timed out');
  });
});

describe('tool hooks from the pipeline', () => {
  it('a node tool_hooks.pre that fails keeps the tool from running', async () => {
    const workingDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-hooks-')));
    dirs.push(workingDir);
    const adapter = new ScriptedAdapter({
      name: 'anthropic',
      turns: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'blocked.txt', content: 'x' } }] },
        'gave up',
      ],
    });
    const backend = createAgentBackend({
      client: new LLMClient({ adapters: [adapter] }),
      workingDir,
      providers: configuredProviders({ ANTHROPIC_API_KEY: 'k' }),
      ledger: new UsageLedger(),
      graphExtra: { 'tool_hooks.pre': 'exit 3' },
    });
    const node = compile(`digraph g { start [shape=Mdiamond]; exit [shape=Msquare];
      a [prompt="x", llm_model="claude-sonnet-4-6"]; start -> a -> exit; }`).graph.nodes.find(
      (n) => n.id === 'a',
    )!;
    const stageDir = path.join(workingDir, 'run', 'a');
    mkdirSync(stageDir, { recursive: true });
    const result = await backend.run({
      node,
      prompt: 'write it',
      contextSummary: '',
      fidelity: 'compact',
      stageDir,
      signal: new AbortController().signal,
      emit: () => {},
    });
    expect(result.response).toBe('gave up');
    expect(existsSync(path.join(workingDir, 'blocked.txt'))).toBe(false);
  });
});

describe('createLlmRouter', () => {
  it.each([
    ['fix', ['fix', 'ship'], 'fix'],
    [' "Ship". ', ['fix', 'ship'], 'ship'],
    ['I would go to review_deep next', ['review', 'review_deep'], 'review_deep'],
    ['none of these', ['fix', 'ship'], undefined],
  ])('pickCandidate(%j)', (answer, candidates, expected) => {
    expect(pickCandidate(answer, candidates)).toBe(expected);
  });

  it('asks the router model through the client, books the call on the node and reports the decision', async () => {
    const t = setup([{ text: 'ship', usage: { inputTokens: 100, outputTokens: 2 } }]);
    const rank = createLlmRouter({
      client: t.client,
      choice: { model: 'claude-haiku-4-5' },
      providers: t.providers,
      ledger: t.ledger,
    });
    const emitted: string[] = [];
    const choice = await rank({
      nodeId: 'review',
      emit: (kind) => emitted.push(kind),
      prompt: 'Goal: ship it',
      candidates: ['fix', 'ship'],
      signal: new AbortController().signal,
    });
    expect(choice).toBe('ship');
    expect(t.adapter.calls[0]!.request.model).toBe('claude-haiku-4-5');
    expect(t.ledger.nodeTotals('review')).toMatchObject({ calls: 1, input_tokens: 100 });
    expect(emitted).toEqual(['agent.usage', 'router.decision']);
  });

  it('a failing router call is reported and thrown, never answered by a simulated choice', async () => {
    const t = setup([{ error: new AuthenticationError('bad key', { provider: 'anthropic' }) }]);
    const rank = createLlmRouter({ client: t.client, choice: {}, providers: t.providers, ledger: t.ledger });
    const emitted: Array<{ kind: string; data?: Record<string, unknown> }> = [];
    await expect(
      rank({
        nodeId: 'review',
        emit: (kind, data) => emitted.push({ kind, ...(data ? { data } : {}) }),
        prompt: 'p',
        candidates: ['a', 'b'],
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow('bad key');
    expect(emitted[0]?.kind).toBe('router.error');
    expect(String(emitted[0]?.data?.['error'])).toContain('ANTHROPIC_API_KEY');
  });
});
