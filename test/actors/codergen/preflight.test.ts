import { describe, expect, it } from 'vitest';
import { configuredProviders } from '../../../src/actors/codergen/configured-providers.js';
import { describePlan, preflight, preflightError } from '../../../src/actors/codergen/preflight.js';
import { resolveModel } from '../../../src/actors/codergen/resolve-model.js';
import { compile } from '../../../src/compiler/compile.js';

const graphOf = (body: string) =>
  compile(`digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; ${body} }`).graph;

describe('resolveModel', () => {
  const only = (env: Record<string, string>) => configuredProviders(env);
  it.each([
    ['node model implies its provider', { model: 'gpt-5.2' }, {}, 'gpt-5.2', 'openai', 'node'],
    [
      'provider alone takes its balanced default',
      { provider: 'anthropic' },
      {},
      'claude-sonnet-4-6',
      'anthropic',
      'node',
    ],
    ['google is gemini', { provider: 'google' }, {}, 'gemini-2.5-pro', 'gemini', 'node'],
    [
      'nothing set: first configured provider',
      {},
      { GEMINI_API_KEY: 'g' },
      'gemini-2.5-pro',
      'gemini',
      'environment',
    ],
    [
      'nothing set: anthropic before openai',
      {},
      { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' },
      'claude-sonnet-4-6',
      'anthropic',
      'environment',
    ],
    [
      'unknown model name goes to the first configured provider',
      { model: 'local-llama' },
      { OPENAI_COMPATIBLE_BASE_URL: 'http://x' },
      'local-llama',
      'openai-compatible',
      'node',
    ],
  ])('%s', (_name, choice, env, model, provider, source) => {
    expect(resolveModel(choice, only(env))).toEqual({ model, provider, source });
  });

  it('resolves to nothing when nothing is set anywhere', () => {
    expect(resolveModel({}, only({}))).toEqual({ source: 'none' });
  });
});

describe('preflight', () => {
  it('lists each missing variable with the nodes that need it', () => {
    const graph = graphOf(`
      plan [llm_model="claude-sonnet-4-6"]; code [llm_provider=openai]; review [llm_model="claude-opus-4-6"];
      start -> plan -> code -> review -> exit;`);
    const report = preflight(graph, configuredProviders({ OPENAI_API_KEY: 'k' }));
    expect(report.problems).toEqual([{ need: 'ANTHROPIC_API_KEY', nodes: ['plan', 'review'] }]);
    const message = preflightError(report.problems).message;
    expect(message).toContain('ANTHROPIC_API_KEY (needed by nodes plan, review)');
  });

  it('with no key anywhere names the variables that would do', () => {
    const report = preflight(graphOf('work [prompt="x"]; start -> work -> exit;'), configuredProviders({}));
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]!.need).toContain('ANTHROPIC_API_KEY');
    expect(report.problems[0]!.nodes).toEqual(['work']);
  });

  it('passes when every provider is configured, and describes the plan', () => {
    const graph = graphOf('work [prompt="x"]; start -> work -> exit;');
    const report = preflight(graph, configuredProviders({ OPENAI_API_KEY: 'k' }), { model: 'gpt-5.2-mini' });
    expect(report.problems).toEqual([]);
    expect(describePlan(report.uses)).toEqual(['work: agent model gpt-5.2-mini via openai']);
  });

  it('checks the router of llm_decide edges with the graph router_model', () => {
    const graph = compile(`digraph p { router_model="gemini-2.5-flash";
      start [shape=Mdiamond]; exit [shape=Msquare]; a [shape=parallelogram, tool_command="true"]; b; c;
      start -> a; a -> b [llm_decide=true]; a -> c [llm_decide=true]; b -> exit; c -> exit; }`).graph;
    const report = preflight(graph, configuredProviders({ ANTHROPIC_API_KEY: 'k' }));
    expect(report.problems).toEqual([{ need: 'GEMINI_API_KEY', nodes: ['a'] }]);
  });

  it('says a node names no model for a provider without a default, apart from missing keys', () => {
    const graph = graphOf(`
      local [llm_provider="openai-compatible"]; plan [llm_model="claude-sonnet-4-6"];
      start -> local -> plan -> exit;`);
    const report = preflight(
      graph,
      configuredProviders({ OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1' }),
    );
    expect(report.problems).toEqual([
      { kind: 'model', need: 'openai-compatible', nodes: ['local'] },
      { need: 'ANTHROPIC_API_KEY', nodes: ['plan'] },
    ]);
    const both = preflightError(report.problems);
    expect(both.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(both.message).toBe(
      'cannot start the run, a model provider is not configured: set ANTHROPIC_API_KEY (needed by node plan). Set keys in the environment or in a .env file of the working directory. Also, no model is named for provider openai-compatible, which has no default model (needed by node local): set llm_model on the node (or in the model stylesheet) or pass --model. Or run without models using --dry-run, --scenario FILE or --replay FILE.',
    );
    const modelOnly = preflightError(report.problems.filter((p) => p.kind === 'model'));
    expect(modelOnly.code).toBe('MODEL_NOT_NAMED');
    expect(modelOnly.message).not.toContain('not configured');
    expect(modelOnly.message).toMatch(
      /^cannot start the run, no model is named for provider openai-compatible/,
    );
  });

  it('refuses an unknown provider name', () => {
    const report = preflight(
      graphOf('w [llm_provider=acme]; start -> w -> exit;'),
      configuredProviders({ OPENAI_API_KEY: 'k' }),
    );
    expect(report.problems[0]!.need).toContain('"acme"');
  });
});
