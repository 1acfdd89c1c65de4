import { createProfile, type ProfileOptions } from './create-profile.js';
import { GEMINI_SYSTEM_PROMPT } from './gemini-system-prompt.js';
import type { ProviderProfile } from './provider-profile.js';

/** Gemini (gemini-cli's tool set): edit_file plus list_dir and read_many_files; GEMINI.md besides AGENTS.md. */
export function geminiProfile(options: ProfileOptions = {}): ProviderProfile {
  return createProfile(
    {
      id: 'gemini',
      providerName: 'gemini',
      catalogProvider: 'gemini',
      fallbackModel: 'gemini-3-pro-preview',
      toolNames: [
        'read_file',
        'read_many_files',
        'write_file',
        'edit_file',
        'shell',
        'grep',
        'glob',
        'list_dir',
      ],
      instructionFiles: ['AGENTS.md', 'GEMINI.md'],
      systemPromptTemplate: GEMINI_SYSTEM_PROMPT,
      defaultCommandTimeoutMs: 10_000,
      supportsParallelToolCalls: true,
    },
    options,
  );
}
