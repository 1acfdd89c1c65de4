/** Provider profiles of the agent: tool sets, system prompts, context windows and defaults per provider. */
export { anthropicProfile } from './anthropic-profile.js';
export { createProfile, type ProfileOptions, type ProfileSpec } from './create-profile.js';
export {
  type EnvironmentInfo,
  gatherEnvironmentInfo,
  renderEnvironmentBlock,
} from './environment-context.js';
export { geminiProfile } from './gemini-profile.js';
export { getProfile, PROFILE_PROVIDERS } from './get-profile.js';
export {
  discoverInstructionFiles,
  INSTRUCTIONS_BUDGET_BYTES,
  type InstructionFile,
  renderProjectInstructions,
} from './instruction-files.js';
export { openaiCompatibleProfile } from './openai-compatible-profile.js';
export { openaiProfile } from './openai-profile.js';
export type { ProfileId, ProviderProfile } from './provider-profile.js';
export { composeSystemPrompt, type SystemPromptContext } from './system-prompt.js';
