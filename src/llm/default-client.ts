import type { RequestOptions } from './client.js';
import { LLMClient } from './client.js';
import type { GenerateOptions } from './generate.js';
import type { GenerateObjectOptions } from './generate-object.js';
import type { StreamResult } from './stream-result.js';
import type { GenerateResult, Request } from './types.js';

let defaultClient: LLMClient | undefined;

/** Replaces the module-level client the top-level helpers use (tests pass one with a ScriptedAdapter). */
export function setDefaultClient(client: LLMClient | undefined): void {
  defaultClient = client;
}

/** The module-level client, created from the environment at first use (LLMClient.fromEnv). */
export function getDefaultClient(): LLMClient {
  defaultClient ??= LLMClient.fromEnv();
  return defaultClient;
}

/**
 * `generate` on the default client.
 *
 * @example
 * const { text } = await generate({ model: 'claude-sonnet-4-6', prompt: 'Say hi' });
 */
export function generate(options: GenerateOptions): Promise<GenerateResult> {
  return getDefaultClient().generate(options);
}

/** `stream` on the default client. */
export function stream(request: Request, options?: RequestOptions): StreamResult {
  return getDefaultClient().stream(request, options);
}

/** `generateObject` on the default client. */
export function generateObject<T = unknown>(options: GenerateObjectOptions<T>): Promise<GenerateResult<T>> {
  return getDefaultClient().generateObject(options);
}
