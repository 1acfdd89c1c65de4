import { createProfile, type ProfileOptions } from './create-profile.js';
import { OPENAI_COMPATIBLE_SYSTEM_PROMPT } from './openai-compatible-system-prompt.js';
import type { ProviderProfile } from './provider-profile.js';

/**
 * Chat Completions servers (vLLM, Ollama, hosted open models): edit_file, which small models handle better than
 * a patch grammar; tools run one at a time because many such servers mishandle parallel calls; only AGENTS.md.
 */
export function openaiCompatibleProfile(options: ProfileOptions = {}): ProviderProfile {
  return createProfile(
    {
      id: 'openai-compatible',
      providerName: 'openai-compatible',
      fallbackModel: 'default',
      toolNames: ['read_file', 'write_file', 'edit_file', 'shell', 'grep', 'glob'],
      instructionFiles: ['AGENTS.md'],
      systemPromptTemplate: OPENAI_COMPATIBLE_SYSTEM_PROMPT,
      defaultCommandTimeoutMs: 10_000,
      supportsParallelToolCalls: false,
    },
    options,
  );
}
