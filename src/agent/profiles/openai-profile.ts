import { createProfile, type ProfileOptions } from './create-profile.js';
import { OPENAI_SYSTEM_PROMPT } from './openai-system-prompt.js';
import type { ProviderProfile } from './provider-profile.js';

/** GPT / o-series: apply_patch (v4a envelope) instead of edit_file; `.codex/instructions.md` besides AGENTS.md. */
export function openaiProfile(options: ProfileOptions = {}): ProviderProfile {
  return createProfile(
    {
      id: 'openai',
      providerName: 'openai',
      catalogProvider: 'openai',
      fallbackModel: 'gpt-5.2',
      toolNames: ['read_file', 'apply_patch', 'write_file', 'shell', 'grep', 'glob'],
      instructionFiles: ['AGENTS.md', '.codex/instructions.md'],
      systemPromptTemplate: OPENAI_SYSTEM_PROMPT,
      defaultCommandTimeoutMs: 10_000,
      supportsParallelToolCalls: true,
    },
    options,
  );
}
