import { z } from 'zod';
import type { ExecutionEnvironment } from '../../../src/agent/environment/execution-environment.js';
import type { ProviderProfile } from '../../../src/agent/profiles/provider-profile.js';
import { composeSystemPrompt } from '../../../src/agent/profiles/system-prompt.js';
import type { AgentEvent } from '../../../src/agent/session/agent-event.js';
import type { AgentTool, ToolContext } from '../../../src/agent/tools/define-tool.js';
import { LLMClient } from '../../../src/llm/index.js';
import { ScriptedAdapter, type ScriptedTurnSource } from '../../../src/llm/testing/index.js';
import { tempDir as makeTempDir } from '../../helpers/temp-dir.js';

/** A fresh temp directory, removed after the test. */
export const tempDir = (): string => makeTempDir('attractor-session-');

export function scripted(turns: ScriptedTurnSource): { adapter: ScriptedAdapter; client: LLMClient } {
  const adapter = new ScriptedAdapter({ turns, name: 'anthropic', chunkSize: 4 });
  return { adapter, client: new LLMClient({ adapters: [adapter], retryPolicy: { maxRetries: 0 } }) };
}

/**
 * The part of an environment the session itself touches (the test tools do their own work): anything else
 * throws, so a test relying on it fails loudly.
 */
export function testEnv(dir = tempDir()): ExecutionEnvironment & { cleanups: number } {
  const env = {
    workingDirectory: dir,
    platform: process.platform,
    osVersion: 'test',
    cleanups: 0,
    async cleanup() {
      env.cleanups += 1;
    },
  };
  return new Proxy(env, {
    get(target, key) {
      if (key in target) return target[key as keyof typeof target];
      if (key === 'then') return undefined;
      throw new Error(`testEnv: ${String(key)} is not implemented`);
    },
  }) as unknown as ExecutionEnvironment & { cleanups: number };
}

export function defineTestTool<P>(
  name: string,
  parameters: z.ZodType<P>,
  execute: (args: P, ctx: ToolContext) => Promise<string>,
): AgentTool {
  return {
    name,
    description: `${name} (test tool)`,
    parameters,
    jsonSchema: z.toJSONSchema(parameters) as Record<string, unknown>,
    execute: async (args, ctx) => ({ output: await execute(args as P, ctx), isError: false }),
  } as AgentTool;
}

export const echoTool = defineTestTool(
  'echo',
  z.object({ text: z.string() }),
  async ({ text }) => `echo: ${text}`,
);

export function testProfile(
  overrides: Partial<ProviderProfile> & { toolList?: AgentTool[] } = {},
): ProviderProfile {
  const { toolList = [echoTool], ...rest } = overrides;
  return {
    id: 'anthropic',
    providerName: 'anthropic',
    model: 'claude-sonnet-4-6',
    contextWindow: 200_000,
    defaultCommandTimeoutMs: 120_000,
    supportsReasoning: true,
    supportsStreaming: true,
    supportsParallelToolCalls: true,
    instructionFiles: ['AGENTS.md'],
    systemPromptTemplate: 'Test agent in {working_dir}.',
    tools: () => toolList,
    buildSystemPrompt(context) {
      return composeSystemPrompt(this.systemPromptTemplate, context);
    },
    providerOptions: () => undefined,
    ...rest,
  };
}

export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export const kinds = (events: readonly AgentEvent[]): string[] => events.map((event) => event.kind);
