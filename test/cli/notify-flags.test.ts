import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notifySettings } from '../../src/cli/notify-flags.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('--notify flags', () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'secret'), 'a-secret-long-enough-to-sign\n');
  writeFileSync(path.join(dir, 'short'), 'abc\n');

  it('none: no notifications', () => {
    expect(notifySettings({}, dir)).toBeUndefined();
  });

  it('reads the secret, the format and the public URL', () => {
    expect(
      notifySettings(
        {
          notify: ['https://hooks.example/x'],
          notifySecretFile: 'secret',
          notifyFormat: 'slack',
          publicUrl: 'https://a.example/',
        },
        dir,
      ),
    ).toEqual({
      urls: ['https://hooks.example/x'],
      secret: 'a-secret-long-enough-to-sign',
      format: 'slack',
      publicUrl: 'https://a.example',
    });
  });

  it.each([
    { flags: { notify: ['https://h.example'] }, error: /needs --notify-secret-file/ },
    { flags: { notify: ['ftp://h.example'], notifySecretFile: 'secret' }, error: /not an http\(s\) URL/ },
    {
      flags: { notify: ['https://h.example'], notifySecretFile: 'missing' },
      error: /--notify-secret-file missing: ENOENT/,
    },
    { flags: { notify: ['https://h.example'], notifySecretFile: 'short' }, error: /under 16 characters/ },
    {
      flags: { notify: ['https://h.example'], notifySecretFile: 'secret', notifyFormat: 'xml' },
      error: /json or slack/,
    },
    { flags: { notifySecretFile: 'secret' }, error: /need --notify URL/ },
  ])('refuses $flags', ({ flags, error }) => {
    expect(() => notifySettings(flags, dir)).toThrow(error);
  });
});
