import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeFile } from '../../src/shared/remove-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'attractor-rm-'));
  dirs.push(d);
  return d;
};

describe('removeFile', () => {
  it('removes a file that is there', () => {
    const file = join(temp(), 'status.json');
    writeFileSync(file, '{}');
    removeFile(file);
    expect(existsSync(file)).toBe(false);
  });

  it('is quiet when the file or its folder is missing', () => {
    const dir = temp();
    expect(() => removeFile(join(dir, 'absent.json'))).not.toThrow();
    expect(() => removeFile(join(dir, 'no-folder', 'absent.json'))).not.toThrow();
  });

  it('does not hide other failures (a directory is not a file)', () => {
    const dir = join(temp(), 'status.json');
    mkdirSync(dir);
    expect(() => removeFile(dir)).toThrow();
    expect(existsSync(dir)).toBe(true);
  });
});
