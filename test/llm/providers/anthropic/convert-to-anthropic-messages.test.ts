import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../src/llm/errors/invalid-request-error.js';
import { convertToAnthropicMessages } from '../../../../src/llm/providers/anthropic/convert-to-anthropic-messages.js';
import type { Message } from '../../../../src/llm/types.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-anthropic-convert-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const withImage = (url: string): Message[] => [{ role: 'user', content: [{ kind: 'image', url }] }];

describe('convertToAnthropicMessages local images', () => {
  it('inlines a readable local file as base64 with its media type', () => {
    const file = path.join(dir, 'dot.jpg');
    fs.writeFileSync(file, Buffer.from([1, 2, 3]));
    const { messages } = convertToAnthropicMessages(withImage(file));
    expect(messages[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AQID' } },
    ]);
  });

  it('reports an unreadable local file as InvalidRequestError naming it, not a raw ENOENT', () => {
    const missing = path.join(dir, 'missing.png');
    let error: unknown;
    try {
      convertToAnthropicMessages(withImage(missing));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toContain(missing);
  });
});
