import { describe, expect, it } from 'vitest';
import type { EnvironmentInfo } from '../../../../src/actors/agent/profiles/environment-context.js';
import { getProfile, PROFILE_PROVIDERS } from '../../../../src/actors/agent/profiles/get-profile.js';
import { composeSystemPrompt, fillTemplate } from '../../../../src/actors/agent/profiles/system-prompt.js';

const environment: EnvironmentInfo = {
  workingDirectory: '/work/project',
  platform: 'linux',
  date: '2026-03-01',
  model: 'claude-sonnet-4-6',
  isGitRepository: true,
  gitBranch: 'main',
  gitStatus: 'clean',
};

describe('provider profiles', () => {
  it.each([
    ['anthropic', 'anthropic', 120_000, true, ['AGENTS.md', 'CLAUDE.md'], 'edit_file'],
    ['openai', 'openai', 10_000, true, ['AGENTS.md', '.codex/instructions.md'], 'apply_patch'],
    ['gemini', 'gemini', 10_000, true, ['AGENTS.md', 'GEMINI.md'], 'list_dir'],
    ['openai-compatible', 'openai-compatible', 10_000, false, ['AGENTS.md'], 'edit_file'],
  ])(
    '%s: routes to %s, %i ms shell default, parallel %s, loads %j',
    (id, provider, timeout, parallel, files, editTool) => {
      const profile = getProfile(id);
      expect(profile.id).toBe(id);
      expect(profile.providerName).toBe(provider);
      expect(profile.defaultCommandTimeoutMs).toBe(timeout);
      expect(profile.supportsParallelToolCalls).toBe(parallel);
      expect(profile.instructionFiles).toEqual(files);
      // Each profile's own prompt, teaching its own edit tool.
      expect(profile.systemPromptTemplate).toContain(editTool);
    },
  );

  it.each([
    ['anthropic', ['read_file', 'write_file', 'edit_file', 'shell', 'grep', 'glob']],
    ['openai', ['read_file', 'apply_patch', 'write_file', 'shell', 'grep', 'glob']],
    [
      'gemini',
      ['read_file', 'read_many_files', 'write_file', 'edit_file', 'shell', 'grep', 'glob', 'list_dir'],
    ],
    ['openai-compatible', ['read_file', 'write_file', 'edit_file', 'shell', 'grep', 'glob']],
  ])('%s exposes its tool set', (id, names) => {
    expect(
      getProfile(id)
        .tools()
        .map((tool) => tool.name),
    ).toEqual(names);
  });

  it('adds custom tools, a later registration replacing a built-in of the same name', () => {
    const custom = { ...getProfile('anthropic').tools()[0]!, description: 'my read_file' };
    const extra = { ...custom, name: 'deploy', description: 'deploy it' };
    const tools = getProfile('anthropic', { tools: [custom, extra] }).tools();
    expect(tools.map((t) => t.name)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'shell',
      'grep',
      'glob',
      'deploy',
    ]);
    expect(tools[0]!.description).toBe('my read_file');
  });

  it('takes the default model and the context window from the catalog', () => {
    expect(getProfile('anthropic')).toMatchObject({
      model: 'claude-opus-4-6',
      contextWindow: 200_000,
      supportsReasoning: true,
    });
    expect(getProfile('openai', { model: 'gpt-4.1' }).contextWindow).toBe(1_047_576);
    expect(getProfile('gemini')).toMatchObject({ model: 'gemini-3.1-pro-preview', contextWindow: 1_048_576 });
    expect(getProfile('openai-compatible', { model: 'llama-3-70b' })).toMatchObject({
      model: 'llama-3-70b',
      contextWindow: 128_000,
      supportsReasoning: false,
    });
    expect(getProfile('anthropic', { contextWindow: 5_000 }).contextWindow).toBe(5_000);
    expect(getProfile('google').id).toBe('gemini');
  });

  it('every profile has a different system prompt', () => {
    const prompts = new Set(PROFILE_PROVIDERS.map((id) => getProfile(id).systemPromptTemplate));
    expect(prompts.size).toBe(PROFILE_PROVIDERS.length);
  });

  it('refuses an unknown provider with the known ones listed', () => {
    expect(() => getProfile('mistral')).toThrow(
      expect.objectContaining({
        code: 'agent.unknown_provider',
        message: expect.stringContaining('anthropic, openai'),
      }),
    );
  });
});

describe('system prompt', () => {
  it('layers base, environment, tools, project instructions and user instructions, in that order', () => {
    const prompt = composeSystemPrompt('Base prompt for {model_id} in {working_dir}; {not_a_variable}.', {
      environment,
      tools: [{ name: 'read_file', description: 'Read a file.\nMore detail.' }],
      instructions: [{ path: '/work/project/AGENTS.md', content: 'Run npm test.' }],
      userInstructions: 'Write status.json when done.',
    });
    expect(prompt.startsWith('Base prompt for claude-sonnet-4-6 in /work/project; {not_a_variable}.')).toBe(
      true,
    );
    const order = [
      'Base prompt',
      '<environment>',
      '# Tools',
      '- read_file: Read a file.',
      '# Project instructions',
      'Run npm test.',
      '# Instructions for this task',
      'Write status.json',
    ];
    const positions = order.map((text) => prompt.indexOf(text));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(prompt).not.toContain('More detail.');
  });

  it('leaves out empty layers', () => {
    const prompt = composeSystemPrompt('Base.', { environment, tools: [], instructions: [] });
    expect(prompt).not.toContain('# Tools');
    expect(prompt).not.toContain('# Project instructions');
    expect(prompt).not.toContain('# Instructions for this task');
  });

  it('fills only known template variables', () => {
    expect(
      fillTemplate('{date} {platform} {git_branch} {x}', { date: 'd', platform: 'p', git_branch: 'b' }),
    ).toBe('d p b {x}');
  });

  it('each profile builds its prompt from its own template with the environment block', () => {
    for (const id of PROFILE_PROVIDERS) {
      const profile = getProfile(id);
      const prompt = profile.buildSystemPrompt({ environment, tools: [], instructions: [] });
      expect(prompt).toContain('/work/project');
      expect(prompt).toContain('<environment>');
      expect(prompt).not.toContain('{working_dir}');
    }
  });
});
