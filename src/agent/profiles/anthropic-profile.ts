import { ANTHROPIC_SYSTEM_PROMPT } from './anthropic-system-prompt.js';
import { createProfile, type ProfileOptions } from './create-profile.js';
import type { ProviderProfile } from './provider-profile.js';

/**
 * Claude: edit_file (old_string/new_string) edits, never apply_patch; shell commands get 120 s by default;
 * CLAUDE.md is read besides AGENTS.md.
 */
export function anthropicProfile(options: ProfileOptions = {}): ProviderProfile {
  return createProfile(
    {
      id: 'anthropic',
      providerName: 'anthropic',
      catalogProvider: 'anthropic',
      fallbackModel: 'claude-sonnet-4-6',
      toolNames: ['read_file', 'write_file', 'edit_file', 'shell', 'grep', 'glob'],
      instructionFiles: ['AGENTS.md', 'CLAUDE.md'],
      systemPromptTemplate: ANTHROPIC_SYSTEM_PROMPT,
      defaultCommandTimeoutMs: 120_000,
      supportsParallelToolCalls: true,
    },
    options,
  );
}
