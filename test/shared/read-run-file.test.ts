import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunFile } from '../../src/shared/read-run-file.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('readRunFile', () => {
  it('reads a regular file', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'checkpoint.json'), '{"a":1}');
    expect(readRunFile(path.join(dir, 'checkpoint.json'))).toBe('{"a":1}');
  });

  it.each([
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file]), /not a regular file/],
    ['a folder', (file: string) => fs.mkdirSync(file), /directory/],
    ['missing', () => {}, /no such file/],
    ['a link out of its folder', (file: string) => fs.symlinkSync('/etc/hostname', file), /outside/],
    ['too large', (file: string) => fs.writeFileSync(file, 'x'.repeat(100)), /over the 10 bytes limit/],
  ])('refuses %s without blocking, with RUN_FILE_UNREADABLE', (_what, make, reason) => {
    const file = path.join(tempDir(), 'checkpoint.json');
    make(file);
    expect(() => readRunFile(file, 10)).toThrow(reason);
    try {
      readRunFile(file, 10);
    } catch (error) {
      expect(error).toMatchObject({ code: 'RUN_FILE_UNREADABLE' });
    }
  });
});
