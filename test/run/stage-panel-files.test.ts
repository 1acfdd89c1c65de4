import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PANEL_LOG_TAIL_BYTES, readStagePanelFiles } from '../../src/run/stage-panel-files.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('readStagePanelFiles', () => {
  it('reads what the node panel shows, leaving out missing files', () => {
    const stage = tempDir();
    writeFileSync(join(stage, 'prompt.md'), 'Create hello.txt');
    writeFileSync(join(stage, 'stdout.log'), 'hi\n');
    writeFileSync(join(stage, 'status.json'), '{}');
    expect(readStagePanelFiles(stage)).toEqual({ 'prompt.md': 'Create hello.txt', 'stdout.log': 'hi\n' });
  });

  it("keeps a long log's end, marked as cut", () => {
    const stage = tempDir();
    writeFileSync(join(stage, 'stderr.log'), `${'x'.repeat(PANEL_LOG_TAIL_BYTES)}the end`);
    const kept = readStagePanelFiles(stage)['stderr.log'] ?? '';
    expect(kept.startsWith('…')).toBe(true);
    expect(kept.endsWith('the end')).toBe(true);
    expect(Buffer.byteLength(kept.slice(1))).toBe(PANEL_LOG_TAIL_BYTES);
  });
});
