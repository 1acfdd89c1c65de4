import { describe, expect, it } from 'vitest';
import { resolveSessionConfig } from '../../../src/agent/session/session-config.js';

describe('SessionConfig', () => {
  it('fills every default', () => {
    expect(resolveSessionConfig()).toEqual({
      maxTurns: 0,
      maxToolRoundsPerInput: 0,
      maxCommandTimeoutMs: 600_000,
      enableLoopDetection: true,
      loopDetectionWindow: 10,
      maxSubagentDepth: 1,
      modelId: '',
      userInstructions: '',
      contextWindowWarningThreshold: 0.8,
      enableCompaction: false,
      compactionThreshold: 0.9,
    });
    const config = resolveSessionConfig();
    expect(config.defaultCommandTimeoutMs).toBeUndefined();
    expect(config.reasoningEffort).toBeUndefined();
    expect(config.truncationConfig).toBeUndefined();
  });

  it('keeps given values', () => {
    const config = resolveSessionConfig({
      maxTurns: 5,
      reasoningEffort: 'high',
      truncationConfig: { charLimits: { shell: 1_000 }, truncationModes: { shell: 'tail' } },
    });
    expect(config).toMatchObject({ maxTurns: 5, reasoningEffort: 'high', maxSubagentDepth: 1 });
    expect(config.truncationConfig?.charLimits).toEqual({ shell: 1_000 });
  });

  it.each([
    [{ maxTurns: -1 }, 'maxTurns'],
    [{ contextWindowWarningThreshold: 1.5 }, 'contextWindowWarningThreshold'],
    [{ reasoningEffort: 'extreme' }, 'reasoningEffort'],
    [{ maxTurn: 3 }, 'maxTurn'],
  ])('refuses %j naming the field', (input, field) => {
    expect(() => resolveSessionConfig(input as never)).toThrow(
      expect.objectContaining({ code: 'agent.config_invalid', message: expect.stringContaining(field) }),
    );
  });
});
