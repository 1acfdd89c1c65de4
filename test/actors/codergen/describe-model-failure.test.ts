import { describe, expect, it } from 'vitest';
import { configuredProviders } from '../../../src/actors/codergen/configured-providers.js';
import { describeModelFailure } from '../../../src/actors/codergen/describe-model-failure.js';

const providers = configuredProviders({
  OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
});

describe('describeModelFailure', () => {
  it.each<[string, { message: string; code: string; provider?: string }, string]>([
    [
      'a refusal names the key variable (the compatible server’s key, not its URL)',
      { message: '401 Unauthorized', code: 'llm.authentication', provider: 'openai-compatible' },
      'openai-compatible refused the request (401 Unauthorized): check OPENAI_COMPATIBLE_API_KEY',
    ],
    [
      'a 403 is a refusal too',
      { message: 'no access to this model', code: 'llm.permission_denied', provider: 'anthropic' },
      'anthropic refused the request (no access to this model): check ANTHROPIC_API_KEY',
    ],
    [
      'a configuration error sent nothing, so it claims no refusal',
      {
        message: 'Anthropic API key missing: set ANTHROPIC_API_KEY (or pass apiKey).',
        code: 'llm.configuration',
        provider: 'anthropic',
      },
      'anthropic could not be called, no request was sent: Anthropic API key missing: set ANTHROPIC_API_KEY (or pass apiKey).',
    ],
    [
      'a transient error that outlived the retries',
      { message: 'overloaded', code: 'llm.server', provider: 'anthropic' },
      'anthropic kept failing after retries: overloaded',
    ],
    [
      'a connection that never came names where it went, and the variable that said so',
      {
        message: 'anthropic: connection failed: Connection error.',
        code: 'llm.network',
        provider: 'anthropic',
      },
      'anthropic could not be reached at http://127.0.0.1:9 (ANTHROPIC_BASE_URL), even after retries: anthropic: connection failed: Connection error.',
    ],
    [
      'the public endpoint, when no base URL is set',
      { message: 'openai: connection failed: ECONNREFUSED', code: 'llm.network', provider: 'openai' },
      'openai could not be reached at https://api.openai.com/v1, even after retries: openai: connection failed: ECONNREFUSED',
    ],
    [
      'anything else',
      { message: 'model not found', code: 'llm.not_found' },
      'openai call failed: model not found',
    ],
  ])('%s', (_name, error, expected) => {
    const reason = describeModelFailure(error, error.provider ?? 'openai', providers);
    expect(reason).toBe(expected);
    if (error.code === 'llm.configuration') expect(reason).not.toContain('refused');
  });
});
