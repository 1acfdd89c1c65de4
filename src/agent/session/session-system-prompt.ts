import type { ExecutionEnvironment } from '../environment/execution-environment.js';
import { gatherEnvironmentInfo } from '../profiles/environment-context.js';
import { discoverInstructionFiles } from '../profiles/instruction-files.js';
import type { ProviderProfile } from '../profiles/provider-profile.js';
import type { AgentTool } from '../tools/define-tool.js';

/**
 * The system prompt of a session, built once at its first input: the profile's template with the environment
 * facts (git included), the tools, the project's instruction files for this provider, and the user's
 * instructions last.
 */
export async function buildSessionSystemPrompt(options: {
  env: ExecutionEnvironment;
  profile: ProviderProfile;
  model: string;
  tools: readonly AgentTool[];
  userInstructions: string;
}): Promise<string> {
  const { env, profile } = options;
  const environment = await gatherEnvironmentInfo({
    workingDirectory: env.workingDirectory,
    platform: env.platform,
    osVersion: env.osVersion,
    model: options.model,
  });
  const instructions = await discoverInstructionFiles({
    workingDirectory: env.workingDirectory,
    names: profile.instructionFiles,
    ...(environment.gitRoot ? { gitRoot: environment.gitRoot } : {}),
  });
  return profile.buildSystemPrompt({
    environment,
    instructions,
    tools: options.tools,
    userInstructions: options.userInstructions,
  });
}
