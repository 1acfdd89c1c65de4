import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from './helpers/ensure-dist.js';

// Through the package's own `exports` map (self-reference), as users import it after `npm install`.
describe('package exports', () => {
  beforeAll(() => ensureDist(), 180_000);

  it.each([
    [
      'attractor-pipelines',
      [
        'compile',
        'compileMachine',
        'providePipeline',
        'pipelineInput',
        'runPipeline',
        'resumePipeline',
        'restorePipeline',
        'loadPipeline',
      ],
    ],
    [
      'attractor-pipelines/llm',
      ['LLMClient', 'AnthropicAdapter', 'OpenAIAdapter', 'GeminiAdapter', 'OpenAICompatibleAdapter'],
    ],
    [
      'attractor-pipelines/agent',
      [
        'createSession',
        'getProfile',
        'defineTool',
        'LocalExecutionEnvironment',
        'createAgentBackend',
        'UsageLedger',
        'ToolRegistry',
      ],
    ],
    [
      'attractor-pipelines/compiler',
      ['parseDot', 'validate', 'selectEdge', 'applyTransforms', 'evaluateCondition'],
    ],
    [
      'attractor-pipelines/testing',
      ['ScriptedAdapter', 'parseCassette', 'createSimulatedBackend', 'QueueInterviewer', 'parseScenario'],
    ],
  ])('%s exports %j', async (specifier, names) => {
    const mod = (await import(/* @vite-ignore */ specifier)) as Record<string, unknown>;
    for (const name of names) expect(typeof mod[name], name).toBe('function');
  });

  it('a scripted adapter answers through the public client', async () => {
    // Specifiers in variables: resolved at run time through the exports map, typed from src/.
    const llm: string = 'attractor-pipelines/llm';
    const testing: string = 'attractor-pipelines/testing';
    const { LLMClient, Message } = (await import(
      /* @vite-ignore */ llm
    )) as typeof import('../src/llm/index.js');
    const { ScriptedAdapter } = (await import(
      /* @vite-ignore */ testing
    )) as typeof import('../src/testing.js');
    const client = new LLMClient({
      adapters: [new ScriptedAdapter({ turns: [{ text: 'scripted hello' }] })],
    });
    const response = await client.complete({ model: 'scripted-1', messages: [Message.user('hi')] });
    expect(response.text).toBe('scripted hello');
  });
});
